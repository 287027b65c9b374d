package dev.resilienceharness.clock;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * Thrown into a loop that has made far more calls or waits than any policy allows, so that a loop stuck
 * retrying forever ends its run with a violation instead of hanging the build. An {@link Error} so that a
 * loop's {@code catch (Exception e)} cannot swallow it.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class RunawayLoop extends Error {

    private final boolean waiting;

    /** @param waiting whether it was the waits (not the calls) that ran away */
    public RunawayLoop(String message, boolean waiting) {
        super(message, null, false, false);
        this.waiting = waiting;
    }

    /** Whether the loop ran away waiting rather than calling. */
    public boolean waiting() {
        return waiting;
    }
}
