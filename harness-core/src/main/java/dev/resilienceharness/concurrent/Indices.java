package dev.resilienceharness.concurrent;

import java.util.Objects;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Runs a body once for every index of {@code [0, n)}, on the calling thread and the common fork/join pool, as
 * {@code IntStream.range(0, n).parallel().forEach(body)} does, but split down to leaves of a few indices.
 *
 * <p>A parallel stream splits a range into about four leaves per worker of the pool (a 2-core machine's pool has one
 * worker): over 10,000 cassettes that is four leaves of 2,500, and the thread that takes the last one works on alone
 * while the other has nothing left to steal, for as long as a quarter of the pass may take. Small leaves keep both
 * busy to the end; a leaf of {@link #GRAIN} costs a task object, nothing more.
 *
 * <p>As with the stream, the order in which indices run is not defined and the body runs on several threads at once.
 * An exception thrown by the body ends its own leaf only; the first one is thrown here, itself, once every other leaf
 * has ended (those of other leaves are added to it as suppressed), so that no index is still running when this method
 * returns or throws. A leaf's failure is kept aside rather than handed to the pool: the pool records a task's
 * exception in objects it allocates, and when that fails too (a full heap) its worker dies with the task never done,
 * and whoever joins it waits forever.
 */
public final class Indices {

    /** How many indices one leaf runs: {@value}. */
    public static final int GRAIN = 8;

    private Indices() {
    }

    /** Runs {@code body} for every index of {@code [0, n)}, on all cores. */
    public static void forEach(int n, IntConsumer body) {
        Objects.requireNonNull(body, "body");
        if (n < 0) {
            throw new IllegalArgumentException("n is negative: " + n);
        }
        if (n <= GRAIN) {
            for (int i = 0; i < n; i++) {
                body.accept(i);
            }
            return;
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        new Range(0, n, body, failure).invoke();
        Throwable failed = failure.get();
        if (failed instanceof RuntimeException e) {
            throw e;
        }
        if (failed instanceof Error e) {
            throw e;
        }
        if (failed != null) {
            // A checked exception thrown past the compiler's checks.
            throw new IllegalStateException(failed);
        }
    }

    /** The indices {@code [from, to)}: run here when few, else halved, one half forked and the other run here. */
    private static final class Range extends RecursiveAction {

        private static final long serialVersionUID = 1L;

        private final int from;
        private final int to;
        private final transient IntConsumer body;
        /** The first failure of any leaf; the others are added to it. */
        private final transient AtomicReference<Throwable> failure;

        Range(int from, int to, IntConsumer body, AtomicReference<Throwable> failure) {
            this.from = from;
            this.to = to;
            this.body = body;
            this.failure = failure;
        }

        @Override
        protected void compute() {
            // Nothing leaves this method by a throw, so the pool never records an exception: see the class comment.
            if (to - from <= GRAIN) {
                try {
                    for (int i = from; i < to; i++) {
                        body.accept(i);
                    }
                } catch (Throwable t) {
                    failed(t);
                }
                return;
            }
            int middle = (from + to) >>> 1;
            Range later;
            try {
                later = new Range(middle, to, body, failure);
                later.fork();
            } catch (Throwable t) {
                // Not forked, so never run: forEach throws this instead.
                failed(t);
                later = null;
            }
            try {
                new Range(from, middle, body, failure).compute();
            } catch (Throwable t) {
                failed(t);
            }
            // The forked half is joined whatever this one did: when forEach returns or throws, no index is still
            // running.
            try {
                if (later != null) {
                    later.join();
                }
            } catch (Throwable t) {
                failed(t);
            }
        }

        private void failed(Throwable t) {
            if (failure.compareAndSet(null, t)) {
                return;
            }
            Throwable first = failure.get();
            if (first != t) {
                try {
                    first.addSuppressed(t);
                } catch (Throwable none) {
                    // No memory left to add it: the first one is what is thrown.
                }
            }
        }
    }
}
