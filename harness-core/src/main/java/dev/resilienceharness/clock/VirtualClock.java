package dev.resilienceharness.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A clock that moves only when a loop sleeps on it. It starts at {@link #EPOCH} and records every wait, so the
 * invariants can bound total waiting and the report can draw the waits on a timeline.
 */
public final class VirtualClock implements Sleeper {

    /** Where every scenario run's clock starts (SPEC section 5): 2026-01-01T00:00:00Z. */
    public static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

    /** More waits than this in one run means the loop is stuck; the run is cut short. */
    public static final int MAX_WAITS = 100_000;

    private final List<Wait> waits = new ArrayList<>();
    private long elapsedNanos;

    /** One wait: when it started (nanoseconds after the epoch) and how long it lasted. */
    public record Wait(long startNanos, long nanos) {
    }

    @Override
    public void sleep(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("cannot sleep a negative duration: " + duration);
        }
        if (waits.size() >= MAX_WAITS) {
            throw new RunawayLoop("the loop waited " + MAX_WAITS + " times in one run without finishing", true);
        }
        long nanos = duration.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L / 2 ? Long.MAX_VALUE / 2
                : duration.toNanos();
        waits.add(new Wait(elapsedNanos, nanos));
        elapsedNanos = elapsedNanos > Long.MAX_VALUE - nanos ? Long.MAX_VALUE : elapsedNanos + nanos;
    }

    /** The current virtual instant. */
    public Instant now() {
        return EPOCH.plusNanos(elapsedNanos);
    }

    /** Nanoseconds since the epoch. */
    public long elapsedNanos() {
        return elapsedNanos;
    }

    /** All virtual waiting so far. */
    public Duration totalWaited() {
        return Duration.ofNanos(elapsedNanos);
    }

    /** Every wait so far, in order. */
    public List<Wait> waits() {
        return Collections.unmodifiableList(waits);
    }
}
