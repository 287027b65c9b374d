package dev.resilienceharness.concurrent;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.apiguardian.api.API;

/**
 * Work begun ahead of the moment it is needed, on a daemon thread of its own: a cold JVM that reads its yaml on one
 * core has the other free meanwhile, and the pool's workers may be busy with that very yaml.
 */
@API(status = INTERNAL, since = "0.1.0")
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
