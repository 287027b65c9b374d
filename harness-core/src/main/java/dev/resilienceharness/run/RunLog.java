package dev.resilienceharness.run;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Where the engine's work logs what it does, one line at a time: Maven's log, a forked JVM's standard output, or
 * whatever a plain Java caller gives it.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface RunLog {

    /** Whether {@link #debug} lines are kept; when not, the engine does not make them. */
    boolean isDebugEnabled();

    void debug(String line);

    void info(String line);

    void warn(String line);

    void error(String line);
}
