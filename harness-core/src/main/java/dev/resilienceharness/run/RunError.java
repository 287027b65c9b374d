package dev.resilienceharness.run;

/**
 * The work could not be done: an input is wrong (a bad yaml, option or cassette folder) or a file cannot be read or
 * written. Maven's goals report it as an error of the build ({@code MojoExecutionException}).
 */
public final class RunError extends RunException {

    public RunError(String message) {
        super(message, null);
    }

    public RunError(String message, Throwable cause) {
        super(message, cause);
    }
}
