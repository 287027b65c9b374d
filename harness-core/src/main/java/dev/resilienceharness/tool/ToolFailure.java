package dev.resilienceharness.tool;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * What a tool throws under an {@code error} tool fault: the tool failed, and did nothing. Frameworks see it as they see
 * any exception from a tool.
 */
@API(status = STABLE, since = "0.1.0")
public final class ToolFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ToolFailure(String message) {
        super(message);
    }
}
