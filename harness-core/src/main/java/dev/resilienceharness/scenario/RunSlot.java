package dev.resilienceharness.scenario;

import dev.resilienceharness.clock.RealSleepWatch;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.Scenario;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The run under way on a run thread ({@link RunThreads}), seen from the thread waiting for it: what the waiting thread
 * needs to tell that the run has stalled past saving, and to report it without the run thread's help.
 */
final class RunSlot {

    /** The slot of the work the current thread does for a waiting thread, or {@code null} on any other thread. */
    private static final ThreadLocal<RunSlot> CURRENT = new ThreadLocal<>();

    private volatile Scenario scenario;
    private volatile VirtualClock clock;
    private volatile ScenarioTransport transport;
    private volatile RealSleepWatch watch;
    private long stalledAtNanos = -1;
    private RealSleepWatch.Stall seen;
    private final java.util.concurrent.atomic.AtomicBoolean reported = new java.util.concurrent.atomic.AtomicBoolean();

    /** The slot the current thread fills, or {@code null} when it works for no waiting thread. */
    static RunSlot current() {
        return CURRENT.get();
    }

    /** Does {@code work} on the current thread as the work of this slot. */
    <T> T within(Supplier<T> work) {
        CURRENT.set(this);
        try {
            return work.get();
        } finally {
            CURRENT.remove();
        }
    }

    /** A run starts on this slot's thread. */
    void start(Scenario scenario, VirtualClock clock, ScenarioTransport transport, RealSleepWatch watch) {
        this.scenario = scenario;
        this.clock = clock;
        this.transport = transport;
        this.watch = watch;
    }

    /** The run has ended. */
    void end() {
        watch = null;
    }

    /**
     * Whether the waiting thread should give up on the run: it stalled, was interrupted, and has not ended
     * {@code grace} after the waiting thread first saw that. Asked by the waiting thread only.
     */
    boolean givenUp(Duration grace) {
        RealSleepWatch w = watch;
        if (w == null || w.stall() == null) {
            return false;
        }
        long now = System.nanoTime();
        if (stalledAtNanos < 0) {
            stalledAtNanos = now;
            seen = w.stall();
        }
        return now - stalledAtNanos >= grace.toNanos();
    }

    /**
     * Whether the caller is the one to report the work of this slot: true once, for the worker that finished it or
     * for the waiting thread that gave up on it, whichever asks first.
     */
    boolean report() {
        return reported.compareAndSet(false, true);
    }

    Scenario scenario() {
        return scenario;
    }

    VirtualClock clock() {
        return clock;
    }

    ScenarioTransport transport() {
        return transport;
    }

    /** The stall of the run given up on, as the waiting thread first saw it. */
    RealSleepWatch.Stall stall() {
        return seen;
    }
}
