package dev.resilienceharness.scenario;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The threads a team's loop runs on, so that the thread that asked for a run can give up on a loop blocked where no
 * interrupt reaches it: one thread for each thread that asks, kept from run to run (a run costs a hand-over, not a
 * thread's start) and ending after a second without work. A thread given up on is left to its loop, and the next run
 * gets a fresh one.
 */
final class RunThreads {

    /** How often a run is looked at for its end, or for whether to give up on it. */
    private static final Duration POLL = Duration.ofMillis(50);

    private static final ThreadLocal<ThreadPoolExecutor> OWN = new ThreadLocal<>();

    private RunThreads() {
    }

    /**
     * Runs {@code body} on the calling thread's run thread, named {@code name} and with the caller's context class
     * loader, and returns what it returns; or, once {@code giveUp} says so (asked every {@link #POLL} while it runs),
     * what {@code instead} makes, leaving the run thread to {@code body}.
     *
     * @throws RuntimeException or {@link Error}: what {@code body} threw
     * @throws IllegalStateException when the calling thread is interrupted while it waits
     */
    static <T> T run(String name, Supplier<T> body, BooleanSupplier giveUp, Supplier<T> instead) {
        ThreadPoolExecutor own = OWN.get();
        if (own == null) {
            own = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "resilience-run");
                t.setDaemon(true);
                return t;
            });
            own.allowCoreThreadTimeOut(true);
            OWN.set(own);
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Future<T> result = own.submit(() -> {
            Thread me = Thread.currentThread();
            me.setName(name);
            me.setContextClassLoader(loader);
            return body.get();
        });
        while (true) {
            try {
                return result.get(POLL.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (giveUp.getAsBoolean()) {
                    // Its thread stays with the loop; the executor makes no other, and the next run gets another.
                    OWN.remove();
                    own.shutdown();
                    return instead.get();
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException r) {
                    throw r;
                }
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new IllegalStateException(cause);
            } catch (InterruptedException e) {
                result.cancel(true);
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while " + name + " ran", e);
            }
        }
    }
}
