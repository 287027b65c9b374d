package dev.resilienceharness.run;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * Why the engine's work stopped: it could not be done ({@link RunError}), or it was done and found what fails the
 * build ({@link RunFailure}). The message is what the user reads, as it is.
 */
@API(status = INTERNAL, since = "0.1.0")
public abstract sealed class RunException extends Exception permits RunError, RunFailure {

    RunException(String message, Throwable cause) {
        super(message, cause);
    }
}
