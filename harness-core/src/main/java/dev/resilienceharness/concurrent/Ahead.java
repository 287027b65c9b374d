package dev.resilienceharness.concurrent;

import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * Work begun ahead of the moment it is needed, on a daemon thread of its own: a cold JVM that reads its yaml on one
 * core has the other free meanwhile, and the pool's workers may be busy with that very yaml.
 */
public final class Ahead {

    private Ahead() {
    }

    /**
     * {@code work}, begun now on a daemon thread named {@code name}; the future ends with what it returns or the
     * exception it ends with.
     */
    public static <T> Future<T> begin(String name, Callable<T> work) {
        FutureTask<T> task = new FutureTask<>(work);
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return task;
    }
}
