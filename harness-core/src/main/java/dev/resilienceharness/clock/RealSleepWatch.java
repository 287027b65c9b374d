package dev.resilienceharness.clock;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;

/**
 * Catches a scenario run sleeping in real time: a {@code Thread.sleep} in a team's loop, or in an SDK's retry layer
 * whose waits cannot be made virtual. While a run's thread is watched, a sleep that lasts longer than
 * {@link #TOLERANCE} is noted with where it slept, and the thread is interrupted so that the build never waits for
 * it; the run then ends and is reported under bounded waiting.
 *
 * <p>A watch given a measure of the run's activity (its calls and virtual waits) also catches a run that stalls: one
 * that makes no call and no wait for {@code stallBound} of real time, because its loop blocks outside the harness (an
 * unbounded {@code Future.get()} on a callback that never comes, a lock, a queue) or spins. The stall is noted with
 * where the thread stood, and the thread is interrupted once; a run whose loop does not end then is given up on by
 * the rehearsal, which runs such loops on run threads for that reason.
 *
 * <p>One daemon thread looks at the watched threads every {@link #POLL}; it only reads a thread's stack while that
 * thread is in {@code TIMED_WAITING}, or once when it has stalled, so a run that never sleeps costs two map updates
 * and, with an activity measure, one read of it per look.
 */
@API(status = INTERNAL, since = "0.1.0")
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

    /**
     * A run that made no call and no wait for a while in real time.
     *
     * @param millis how long it had made none when it was interrupted
     * @param state  what its thread was doing then: {@code WAITING}, {@code BLOCKED}, {@code RUNNABLE} and so on
     * @param where  where it stood: the JDK method it was blocked in, if any, and the first frame outside the JDK
     */
    public record Stall(long millis, Thread.State state, String where) {
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
    private final LongSupplier activity;
    private final long stallNanos;
    private long lastActivity;
    private long lastActivityNanos;
    private volatile Stall stall;

    private RealSleepWatch(Thread thread, LongSupplier activity, Duration stallBound) {
        this.thread = thread;
        this.activity = activity;
        this.stallNanos = stallBound == null ? 0 : stallBound.toNanos();
        this.lastActivity = activity == null ? 0 : activity.getAsLong();
        this.lastActivityNanos = System.nanoTime();
    }

    /**
     * A watch of no thread, for a run whose code cannot sleep in real time (the built-in loop, whose waits are all the
     * virtual clock's): it never finds anything, and is never in the watched set, where a watch costs the run two
     * updates of it.
     */
    public static RealSleepWatch none() {
        return new RealSleepWatch(null, null, null);
    }

    /** Watches the calling thread until {@link #close()}. */
    public static RealSleepWatch ofCurrentThread() {
        return ofCurrentThread(null, null);
    }

    /**
     * Watches the calling thread until {@link #close()}, and notes a stall when {@code activity} (a count that grows
     * with every call and wait of the run) stays the same for {@code stallBound} of real time.
     *
     * @param activity   the run's activity, read from the watcher's thread; {@code null}: no stall is looked for
     * @param stallBound how long a run may do nothing the harness sees; {@code null} or zero: no stall is looked for
     */
    public static RealSleepWatch ofCurrentThread(LongSupplier activity, Duration stallBound) {
        boolean stalls = activity != null && stallBound != null && !stallBound.isZero() && !stallBound.isNegative();
        RealSleepWatch watch = new RealSleepWatch(Thread.currentThread(), stalls ? activity : null,
                stalls ? stallBound : null);
        WATCHED.put(watch, Boolean.TRUE);
        return watch;
    }

    /** The stall seen, or {@code null}: the run should end, and is reported under bounded waiting. */
    public Stall stall() {
        return stall;
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
        if (thread == null) {
            return;
        }
        WATCHED.remove(this);
        boolean interrupted;
        synchronized (this) {
            open = false;
            interrupted = !found.isEmpty() || stall != null;
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
        if (activity != null && stall == null) {
            lookForStall();
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

    private void lookForStall() {
        long now = System.nanoTime();
        long seen = activity.getAsLong();
        if (seen != lastActivity) {
            lastActivity = seen;
            lastActivityNanos = now;
            return;
        }
        if (now - lastActivityNanos < stallNanos) {
            return;
        }
        Thread.State state = thread.getState();
        if (state == Thread.State.TERMINATED) {
            return;
        }
        stall = new Stall(TimeUnit.NANOSECONDS.toMillis(now - lastActivityNanos), state,
                standing(thread.getStackTrace()));
        thread.interrupt();
    }

    /**
     * Where a stalled thread stands: {@code in java.util.concurrent.CompletableFuture.join, called from
     * com.example.Loop.run(Loop.java:42)}, or only the frame when the thread is in no JDK method.
     */
    static String standing(StackTraceElement[] stack) {
        // The JDK frame just above the first frame of other code is the JDK method that code called.
        String jdk = null;
        for (StackTraceElement frame : stack) {
            String cls = frame.getClassName();
            if (cls.startsWith("java.") || cls.startsWith("jdk.") || cls.startsWith("sun.")) {
                jdk = cls + "." + frame.getMethodName();
                continue;
            }
            String own = cls + "." + frame.getMethodName() + "(" + frame.getFileName() + ":" + frame.getLineNumber()
                    + ")";
            return jdk == null ? own : "in " + jdk + ", called from " + own;
        }
        return jdk == null ? "an unknown place" : "in " + jdk;
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
