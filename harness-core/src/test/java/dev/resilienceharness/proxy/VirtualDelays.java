package dev.resilienceharness.proxy;

import dev.resilienceharness.clock.VirtualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The proxy's answer delays on the harness's {@link VirtualClock}: a delayed answer waits here, holding no thread,
 * until the test moves the clock past its end. Nobody really waits, so a test of the delays cannot be slowed into
 * failing by a busy machine.
 */
final class VirtualDelays implements AnswerDelays {

    /** One delayed answer: when, on the virtual clock, it began to wait and when its delay is over. */
    record Pending(long sinceNanos, long dueNanos, Runnable task) {
    }

    private final VirtualClock clock = new VirtualClock();
    private final List<Pending> pending = new ArrayList<>();

    @Override
    public synchronized void after(Duration delay, Runnable task) {
        long now = clock.elapsedNanos();
        pending.add(new Pending(now, now + delay.toNanos(), task));
        notifyAll();
    }

    /** Waits until {@code n} answers are waiting at once (at most {@code guard} of real time, against a hang). */
    synchronized List<Pending> awaitWaiting(int n, Duration guard) throws InterruptedException {
        long end = System.nanoTime() + guard.toNanos();
        while (pending.size() < n) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("only " + pending.size() + " of " + n + " answers are waiting");
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return List.copyOf(pending);
    }

    /** Moves the virtual clock on by {@code d} and lets go every answer whose delay is then over. */
    List<Pending> advance(Duration d) {
        List<Pending> due = new ArrayList<>();
        synchronized (this) {
            clock.elapse(d);
            long now = clock.elapsedNanos();
            pending.removeIf(p -> p.dueNanos() <= now && due.add(p));
        }
        due.forEach(p -> p.task().run());
        return due;
    }

    synchronized long nowNanos() {
        return clock.elapsedNanos();
    }
}
