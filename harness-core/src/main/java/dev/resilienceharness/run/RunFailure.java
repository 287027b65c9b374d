package dev.resilienceharness.run;

/**
 * The work was done and found what fails the build: violations, stale cassettes, records that could not be made.
 * Maven's goals report it as a failure of the build ({@code MojoFailureException}).
 */
public final class RunFailure extends RunException {

    public RunFailure(String message) {
        super(message, null);
    }
}
