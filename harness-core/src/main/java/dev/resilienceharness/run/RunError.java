package dev.resilienceharness.run;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The work could not be done: an input is wrong (a bad yaml, option or cassette folder) or a file cannot be read or
 * written. Maven's goals report it as an error of the build ({@code MojoExecutionException}).
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class RunError extends RunException {

    public RunError(String message) {
        super(message, null);
    }

    public RunError(String message, Throwable cause) {
        super(message, cause);
    }
}
