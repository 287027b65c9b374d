package dev.resilienceharness.concurrent;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.apiguardian.api.API;

/**
 * Runs a body once for every index of {@code [0, n)}, on the calling thread and the common fork/join pool, as
 * {@code IntStream.range(0, n).parallel().forEach(body)} does, but handed out in chunks of a few indices.
 *
 * <p>A parallel stream splits a range into about four leaves per worker of the pool (a 2-core machine's pool has one
 * worker): over 10,000 cassettes that is four leaves of 2,500, and the thread that takes the last one works on alone
 * while the other has nothing left to steal. Halving the range down to small leaves does not cure it when the caller
 * is not one of the pool's threads, as a program's {@code main} is not: such a thread can run only the halves it forked
 * itself and no one took yet, so once the pool's worker has taken the first half, the caller ends up waiting for
 * that worker to finish all of it. Here every thread takes the next chunk of indices from one counter until none are
 * left, so whichever thread is faster does more, and the caller waits at most for the chunks the others hold. A chunk
 * is {@link #GRAIN} indices, or fewer when there are not four chunks of that size for each thread (40 parts of a
 * yaml mapping on two threads go five at a time).
 *
 * <p>Indices are handed out in ascending order; the order in which they run is not defined, and the body runs on
 * several threads at once. An exception thrown by the body ends its own chunk only; the first one is thrown here,
 * itself, once every other chunk has ended (those of other chunks are added to it as suppressed), so that no index is
 * still running when this method returns or throws. A chunk's failure is kept aside rather than handed to the pool:
 * the pool records a task's exception in objects it allocates, and when that fails too (a full heap) its worker dies
 * with the task never done, and whoever joins it waits forever.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Indices {

    /** How many indices a thread takes at a time, at most: {@value}. */
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
        int workers = ForkJoinPool.getCommonPoolParallelism();
        int chunk = Math.max(1, Math.min(GRAIN, n / (4 * (workers + 1))));
        Chunks chunks = new Chunks(n, chunk, body);
        // One helper per worker of the pool, and no more than there are chunks besides the caller's first.
        int helpers = Math.min(workers, (n - 1) / chunk);
        List<Helper> forked = new ArrayList<>(helpers);
        for (int k = 0; k < helpers; k++) {
            try {
                Helper helper = new Helper(chunks);
                // Kept before it is forked: the pool may have queued a task whose fork then failed to grow its queue.
                forked.add(helper);
                helper.fork();
            } catch (Throwable t) {
                // No indices are lost: this thread takes every chunk no helper takes.
                break;
            }
        }
        chunks.run();
        for (Helper helper : forked) {
            // A helper that has not begun is told not to, and is not waited for; one that has is joined, so that
            // no index is still running when this method returns or throws.
            if (!helper.begin()) {
                try {
                    helper.join();
                } catch (Throwable t) {
                    chunks.failed(t);
                }
            }
        }
        Throwable failed = chunks.failure.get();
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

    /** The indices {@code [0, n)}, handed out {@code chunk} at a time to whichever thread asks next. */
    private static final class Chunks {

        private final int n;
        private final int chunk;
        private final IntConsumer body;
        private final AtomicInteger next = new AtomicInteger();
        /** The first failure of any chunk; the others are added to it. */
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        Chunks(int n, int chunk, IntConsumer body) {
            this.n = n;
            this.chunk = chunk;
            this.body = body;
        }

        /** Runs chunks until none are left. Nothing leaves it by a throw: see the class comment. */
        void run() {
            // Each thread adds once more after the last chunk, so the counter may pass Integer.MAX_VALUE and turn
            // negative only once every index has been handed out.
            for (int from = next.getAndAdd(chunk); from >= 0 && from < n; from = next.getAndAdd(chunk)) {
                int to = Math.min(n, from + chunk);
                try {
                    for (int i = from; i < to; i++) {
                        body.accept(i);
                    }
                } catch (Throwable t) {
                    failed(t);
                }
            }
        }

        void failed(Throwable t) {
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

    /** A worker of the pool taking chunks beside the caller. */
    private static final class Helper extends RecursiveAction {

        private static final long serialVersionUID = 1L;

        private final transient Chunks chunks;
        /** Set by whichever comes first: the helper beginning, or the caller telling it not to. */
        private final AtomicBoolean begun = new AtomicBoolean();

        Helper(Chunks chunks) {
            this.chunks = chunks;
        }

        /** Whether this call is the one that set {@link #begun}: then the helper runs nothing. */
        boolean begin() {
            return begun.compareAndSet(false, true);
        }

        @Override
        protected void compute() {
            if (begin()) {
                chunks.run();
            }
        }
    }
}
