package dev.resilienceharness.scenario;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.clock.RealSleepWatch;
import dev.resilienceharness.config.Durations;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * How long a run of a team's loop may go, in real time, without a call and without a wait before the harness calls
 * it stalled ({@link RealSleepWatch}): {@value #PROPERTY}, a duration such as {@code 30s} or {@code 2m}, by default
 * {@link #DEFAULT}; {@code 0} turns the guard off. A run of the built-in loop cannot stall and is not watched. A
 * rehearsal reads the system property when it is prepared; the goals give it their {@code stallTimeout} parameter,
 * which the property sets too ({@link Rehearsal#stallBound(Duration)}).
 *
 * <p>A replayed call takes microseconds, so a loop that makes no call and no wait for a minute is blocked outside the
 * harness (an unbounded {@code Future.get()}, a {@code join()} on a callback that never comes, a lock, a queue) or
 * spinning. The bound is generous so that a loop which does real work between two calls (runs a tool, a test, a
 * compiler) is not cut short; such a loop raises it.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class StallBound {

    /** The system property that sets the bound. */
    public static final String PROPERTY = "resilience.stallTimeout";

    /** The bound when {@value #PROPERTY} is not set. */
    public static final Duration DEFAULT = Duration.ofMinutes(1);

    private StallBound() {
    }

    /**
     * The bound {@value #PROPERTY} sets, {@link #DEFAULT} when it is not set, or {@link Duration#ZERO} when it turns
     * the guard off.
     *
     * @throws IllegalArgumentException saying what to give instead, when the property is not a duration
     */
    public static Duration fromSystemProperties() {
        return of(System.getProperty(PROPERTY));
    }

    /**
     * The bound {@code text} (the property's value, or {@code null} when unset) stands for.
     *
     * @throws IllegalArgumentException saying what to give instead, when {@code text} is not a duration
     */
    public static Duration of(String text) {
        if (text == null) {
            return DEFAULT;
        }
        String trimmed = text.strip();
        if (trimmed.equals("0")) {
            return Duration.ZERO;
        }
        try {
            return Durations.parse(trimmed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + ": " + e.getMessage()
                    + ". Give how long a run of the loop may make no call and no wait in real time, such as 30s or"
                    + " 5m, or 0 to turn the stall guard off");
        }
    }
}
