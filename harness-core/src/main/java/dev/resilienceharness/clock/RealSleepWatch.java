package dev.resilienceharness.clock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Catches a scenario run sleeping in real time: a {@code Thread.sleep} in a team's loop, or in an SDK's retry layer
 * whose waits cannot be made virtual. While a run's thread is watched, a sleep that lasts longer than
 * {@link #TOLERANCE} is noted with where it slept, and the thread is interrupted so that the build never waits for
 * it; the run then ends and is reported under bounded waiting.
 *
 * <p>One daemon thread looks at the watched threads every {@link #POLL}; it only reads a thread's stack while that
 * thread is in {@code TIMED_WAITING}, so a run that never sleeps costs two map updates.
 */
public final class RealSleepWatch implements AutoCloseable {

    /** A real sleep shorter than this is not reported (the watcher looks this often, and a loaded machine lags). */
    public static final Duration TOLERANCE = Duration.ofMillis(50);

    static final Duration POLL = Duration.ofMillis(10);

    /**
     * One real sleep.
     *
     * @param millis how long it had slept when it was interrupted
     * @param where  the first stack frame outside the JDK: the code that slept, as {@code class.method(file:line)}
     */
    public record RealSleep(long millis, String where) {
    }

    // The watched threads of every run in this JVM; the watcher thread is shared because runs are many and short.
    private static final Map<RealSleepWatch, Boolean> WATCHED = new ConcurrentHashMap<>();
    private static final ScheduledExecutorService WATCHER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "resilience-real-sleep-watch");
        t.setDaemon(true);
        return t;
    });

    static {
        WATCHER.scheduleWithFixedDelay(RealSleepWatch::lookAtAll, POLL.toMillis(), POLL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private final Thread thread;
    private final List<RealSleep> found = new ArrayList<>();
    private long sleepingSinceNanos = -1;
    private boolean open = true;

    private RealSleepWatch(Thread thread) {
        this.thread = thread;
    }

    /** Watches the calling thread until {@link #close()}. */
    public static RealSleepWatch ofCurrentThread() {
        RealSleepWatch watch = new RealSleepWatch(Thread.currentThread());
        WATCHED.put(watch, Boolean.TRUE);
        return watch;
    }

    /** The real sleeps seen so far. */
    public synchronized List<RealSleep> found() {
        return List.copyOf(found);
    }

    /** Whether a real sleep has been seen: the run should end. */
    public synchronized boolean tripped() {
        return !found.isEmpty();
    }

    /** Stops watching, and clears an interrupt this watch caused so that it cannot reach the thread's next work. */
    @Override
    public void close() {
        WATCHED.remove(this);
        boolean interrupted;
        synchronized (this) {
            open = false;
            interrupted = !found.isEmpty();
        }
        if (interrupted && Thread.currentThread() == thread) {
            Thread.interrupted();
        }
    }

    private static void lookAtAll() {
        for (RealSleepWatch watch : WATCHED.keySet()) {
            try {
                watch.look();
            } catch (RuntimeException e) {
                // A thread that ended between two looks has nothing to report.
            }
        }
    }

    private synchronized void look() {
        if (!open) {
            return;
        }
        StackTraceElement[] stack = thread.getState() == Thread.State.TIMED_WAITING ? thread.getStackTrace() : null;
        String where = stack == null ? null : sleeper(stack);
        long now = System.nanoTime();
        if (where == null) {
            sleepingSinceNanos = -1;
            return;
        }
        if (sleepingSinceNanos < 0) {
            sleepingSinceNanos = now;
            if (found.isEmpty()) {
                return;
            }
        }
        long slept = TimeUnit.NANOSECONDS.toMillis(now - sleepingSinceNanos) + POLL.toMillis();
        if (!found.isEmpty() || slept >= TOLERANCE.toMillis()) {
            found.add(new RealSleep(slept, where));
            sleepingSinceNanos = -1;
            thread.interrupt();
        }
    }

    /** The code that called {@code Thread.sleep}, when the stack is in one; else {@code null}. */
    static String sleeper(StackTraceElement[] stack) {
        boolean sleeping = false;
        for (StackTraceElement frame : stack) {
            String cls = frame.getClassName();
            if (cls.equals("java.lang.Thread") && frame.getMethodName().startsWith("sleep")) {
                sleeping = true;
                continue;
            }
            if (!sleeping) {
                return null;
            }
            if (cls.startsWith("java.") || cls.startsWith("jdk.") || cls.startsWith("sun.")) {
                continue;
            }
            return cls + "." + frame.getMethodName() + "(" + frame.getFileName() + ":" + frame.getLineNumber() + ")";
        }
        return sleeping ? "java.lang.Thread.sleep" : null;
    }
}
