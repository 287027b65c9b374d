package dev.resilienceharness.tool;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** The tool's own code: what it does, returning its result as the text that goes back to the model. */
@API(status = STABLE, since = "0.1.0")
@FunctionalInterface
public interface ToolBody {

    /** Runs the tool once. */
    String run() throws Exception;
}
