package dev.resilienceharness.proxy;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.live.MissingApiKey;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * The proxy from the command line ({@code java -cp ... dev.resilienceharness.proxy.ReplayProxy}): reads the options
 * and the yaml, serves, prints one line per request, and on Ctrl-C stops and writes the report of the runs served.
 * A bad argument or yaml is one line on standard error and exit status 2.
 */
final class ProxyCommand {

    private ProxyCommand() {
    }

    /** {@link ReplayProxy#main} with its surroundings passed in; returns the exit status once {@code stop} opens. */
    static int run(String[] args, Function<String, String> env, PrintStream out, PrintStream err,
            CountDownLatch stop) throws InterruptedException {
        ServeOptions options;
        ReplayProxy proxy;
        try {
            options = ServeOptions.parse(args);
            HarnessConfig config = ConfigLoader.load(options.config());
            // Cassettes written here are stripped of volatile fields and redacted, failing closed.
            proxy = ReplayProxy.forOptions(config, options, env, RecordingRedaction.forConfig(config), line -> {
                out.println(line);
                out.flush();
            });
            proxy.start();
        } catch (IllegalArgumentException | ConfigException | MissingApiKey | IOException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        Thread hook = new Thread(() -> {
            proxy.close();
            stop.countDown();
        }, "resilience-proxy-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("Serving " + options.mode().userName() + " on " + proxy.baseUrl()
                + (options.scenario() == null ? "" : " with the faults of scenario '" + options.scenario() + "'")
                + "; point an OpenAI or Anthropic client's base URL here. " + ProxyMessages.RESET_HINT
                + ". Stop with Ctrl-C");
        out.flush();
        try {
            stop.await();
        } finally {
            proxy.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // Already shutting down: the hook is running.
            }
        }
        return 0;
    }
}
