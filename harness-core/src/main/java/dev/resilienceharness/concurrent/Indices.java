package dev.resilienceharness.concurrent;

import java.util.Objects;
import java.util.concurrent.RecursiveAction;
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
 * An exception thrown by the body ends its own leaf only; it is thrown here once every other leaf has ended (perhaps as
 * a copy of the same class whose cause is the original, when another thread threw it), so that no index is still
 * running when this method returns or throws.
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
        new Range(0, n, body).invoke();
    }

    /** The indices {@code [from, to)}: run here when few, else halved, one half forked and the other run here. */
    private static final class Range extends RecursiveAction {

        private static final long serialVersionUID = 1L;

        private final int from;
        private final int to;
        private final transient IntConsumer body;

        Range(int from, int to, IntConsumer body) {
            this.from = from;
            this.to = to;
            this.body = body;
        }

        @Override
        protected void compute() {
            if (to - from <= GRAIN) {
                for (int i = from; i < to; i++) {
                    body.accept(i);
                }
                return;
            }
            int middle = (from + to) >>> 1;
            Range later = new Range(middle, to, body);
            later.fork();
            // Unlike invokeAll, the forked half is joined even when this one throws: when forEach returns or throws,
            // no index is still running.
            Throwable failed = null;
            try {
                new Range(from, middle, body).compute();
            } catch (RuntimeException | Error e) {
                failed = e;
            }
            try {
                later.join();
            } catch (RuntimeException | Error e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
            if (failed instanceof RuntimeException e) {
                throw e;
            }
            if (failed instanceof Error e) {
                throw e;
            }
        }
    }
}
