package dev.resilienceharness.run;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The work was done and found what fails the build: violations, stale cassettes, records that could not be made.
 * Maven's goals report it as a failure of the build ({@code MojoFailureException}).
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class RunFailure extends RunException {

    public RunFailure(String message) {
        super(message, null);
    }
}
