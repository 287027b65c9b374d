package dev.resilienceharness.clock;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A clock that moves only when a loop sleeps on it, or when a simulated provider takes time to answer. It starts at
 * {@link #EPOCH} and records every wait, so the invariants can bound total waiting and the report can draw the waits
 * on a timeline. Time the provider takes ({@link #elapse}: a timeout running out, a late first token seen through an
 * SDK) moves {@link #now()} but is not waiting: it does not count towards {@link #totalWaited()}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class VirtualClock implements Sleeper {

    /** Where every scenario run's clock starts (docs faults.md): 2026-01-01T00:00:00Z. */
    public static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

    /** More waits than this in one run means the loop is stuck; the run is cut short. */
    public static final int MAX_WAITS = 100_000;

    private final List<Wait> waits = new ArrayList<>();
    private long elapsedNanos;
    private long waitedNanos;
    private boolean suspended;

    /**
     * One wait: when it started (nanoseconds after the epoch), how long it lasted, and who took it.
     *
     * @param by the layer that waited: {@code null} for the loop itself, else the SDK whose retry layer did
     */
    public record Wait(long startNanos, long nanos, String by) {

        /** A wait the loop itself took. */
        public Wait(long startNanos, long nanos) {
            this(startNanos, nanos, null);
        }
    }

    @Override
    public void sleep(Duration duration) {
        sleep(duration, null);
    }

    /**
     * Waits {@code duration} on behalf of {@code by} (an SDK's retry layer; {@code null} for the loop). While the
     * clock is {@linkplain #suspend() suspended} the wait is not taken: a dead process's waits do not count.
     */
    public void sleep(Duration duration, String by) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("cannot sleep a negative duration: " + duration);
        }
        if (waits.size() >= MAX_WAITS) {
            throw new RunawayLoop("the loop waited " + MAX_WAITS + " times in one run without finishing", true);
        }
        if (suspended) {
            return;
        }
        long nanos = nanos(duration);
        waits.add(new Wait(elapsedNanos, nanos, by));
        elapsedNanos = add(elapsedNanos, nanos);
        waitedNanos = add(waitedNanos, nanos);
    }

    /** The simulated provider took {@code duration} to answer: now moves on, but nobody waited. */
    public void elapse(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("cannot elapse a negative duration: " + duration);
        }
        elapsedNanos = add(elapsedNanos, nanos(duration));
    }

    /** From now on waits are not taken, until {@link #resume()}: the process that would wait has died. */
    public void suspend() {
        suspended = true;
    }

    /** Waits count again: a fresh process has started. */
    public void resume() {
        suspended = false;
    }

    private static long nanos(Duration duration) {
        return duration.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L / 2 ? Long.MAX_VALUE / 2 : duration.toNanos();
    }

    private static long add(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }

    /** The current virtual instant. */
    public Instant now() {
        return EPOCH.plusNanos(elapsedNanos);
    }

    /** Nanoseconds since the epoch. */
    public long elapsedNanos() {
        return elapsedNanos;
    }

    /** All virtual waiting so far (time the provider took to answer is not waiting). */
    public Duration totalWaited() {
        return Duration.ofNanos(waitedNanos);
    }

    /**
     * How many waits so far. Unlike {@link #waits()} it may be read from another thread (a watch telling a stalled
     * run from a working one), which sees it a little late at worst.
     */
    public int waitCount() {
        return waits.size();
    }

    /** Every wait so far, in order. */
    public List<Wait> waits() {
        return Collections.unmodifiableList(waits);
    }

    /** This clock as a {@link java.time.Clock} in UTC, for code that reads the time (an SDK, a deadline). */
    public java.time.Clock asClock() {
        return new AsClock(this, java.time.ZoneOffset.UTC);
    }

    private static final class AsClock extends java.time.Clock {

        private final VirtualClock clock;
        private final java.time.ZoneId zone;

        AsClock(VirtualClock clock, java.time.ZoneId zone) {
            this.clock = clock;
            this.zone = zone;
        }

        @Override
        public java.time.ZoneId getZone() {
            return zone;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId other) {
            return new AsClock(clock, other);
        }

        @Override
        public Instant instant() {
            return clock.now();
        }
    }
}
