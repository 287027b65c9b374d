package dev.resilienceharness.proxy;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The proxy's threads, so that slow clients and injected delays never keep others waiting. The JDK server reads a
 * request's line and headers on the thread it hands the connection to, so a client that stalls mid-request holds
 * that thread: the workers are many (up to {@link #MAX_WORKERS}, idle ones ending after a minute) and each read is
 * given {@code readTimeout}, after which the thread is interrupted, which closes the connection. Delays never hold
 * a thread: {@link #later} runs the rest of an answer on a worker when its delay is over.
 */
final class ProxyThreads implements Executor, AutoCloseable {

    /** The most requests read or answered at one time; more wait their turn. */
    static final int MAX_WORKERS = 512;

    /** How long closing waits for the workers to finish what they were answering. */
    static final Duration CLOSE_GRACE = Duration.ofSeconds(5);

    private final ThreadPoolExecutor workers;
    private final ScheduledThreadPoolExecutor timers;
    private final Duration readTimeout;
    private final ThreadLocal<Guard> current = new ThreadLocal<>();
    private final AnswerDelays delays;

    ProxyThreads(Duration readTimeout) {
        this(readTimeout, null);
    }

    /** @param delays where delayed answers wait; {@code null}: on this pool's own timer */
    ProxyThreads(Duration readTimeout, AnswerDelays delays) {
        this.readTimeout = readTimeout;
        this.workers = new ThreadPoolExecutor(MAX_WORKERS, MAX_WORKERS, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), daemons("resilience-proxy"));
        this.workers.allowCoreThreadTimeOut(true);
        this.timers = new ScheduledThreadPoolExecutor(1, daemons("resilience-proxy-timer"));
        this.timers.setRemoveOnCancelPolicy(true);
        this.delays = delays != null ? delays
                : (delay, task) -> timers.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Runs the server's work for one connection, interrupting it if the request is not read in time. */
    @Override
    public void execute(Runnable exchange) {
        workers.execute(() -> {
            Guard guard = new Guard(Thread.currentThread());
            guard.timer = timers.schedule(guard::expire, readTimeout.toNanos(), TimeUnit.NANOSECONDS);
            current.set(guard);
            try {
                exchange.run();
            } finally {
                current.remove();
                guard.standDown();
            }
        });
    }

    /** Tells the guard of the calling thread that its request has been read in full: answering takes its time. */
    void requestRead() {
        Guard guard = current.get();
        if (guard != null) {
            guard.standDown();
        }
    }

    /** Runs {@code task} on a worker once {@code delay} has passed, holding no thread meanwhile. */
    void later(Duration delay, Runnable task) {
        if (delay.isZero()) {
            workers.execute(task);
        } else {
            delays.after(delay, () -> workers.execute(task));
        }
    }

    /**
     * Ends the threads once the server has stopped: no delayed answer starts any more, and the workers finishing an
     * answer (its log line is written after the client has the answer) are given up to {@link #CLOSE_GRACE} to end
     * before they are interrupted, so that every request answered before the stop is logged before it returns.
     */
    @Override
    public void close() {
        timers.shutdownNow();
        workers.shutdown();
        try {
            if (!workers.awaitTermination(CLOSE_GRACE.toNanos(), TimeUnit.NANOSECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Interrupts one thread if its request is still being read when the time is up. */
    private static final class Guard {
        private final Thread thread;
        private ScheduledFuture<?> timer;
        private boolean done;

        Guard(Thread thread) {
            this.thread = thread;
        }

        synchronized void expire() {
            if (!done) {
                done = true;
                thread.interrupt(); // a blocked channel read ends, and the JDK server closes the connection
            }
        }

        synchronized void standDown() {
            if (!done) {
                done = true;
                timer.cancel(false);
            } else if (Thread.currentThread() == thread) {
                Thread.interrupted(); // an expiry that raced the end of the read must not reach the next task
            }
        }
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
