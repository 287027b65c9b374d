package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.run.PhaseTime;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunLog;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/** Loads a goal's yaml, with {@code -Dresilience.loop} in place of its loop, the same in every JVM a goal runs in. */
@API(status = INTERNAL, since = "0.1.0")
public final class ConfigLoading {

    private ConfigLoading() {
    }

    /**
     * The config in {@code yaml}, with {@code loop} (may be {@code null}) in place of the yaml's loop; a problem in
     * the yaml is an error that names the file, line and key.
     */
    public static HarnessConfig load(Path yaml, String loop, RunLog log) throws RunError {
        return load(yaml, loop, log, null, null);
    }

    /**
     * As {@link #load(Path, String, RunLog)}, telling {@code cassettesFolder} (may be {@code null}) the cassette folder
     * before the yaml's scenarios are read ({@link ConfigLoader#load(Path, Consumer)}), and {@code content} (may be
     * {@code null}) the yaml's bytes before they are read.
     */
    public static HarnessConfig load(Path yaml, String loop, RunLog log, Consumer<Path> cassettesFolder,
            Consumer<byte[]> content) throws RunError {
        HarnessConfig loaded;
        PhaseTime loading = PhaseTime.start(log);
        try {
            byte[] bytes = ConfigLoader.content(yaml);
            if (content != null) {
                content.accept(bytes);
            }
            loaded = ConfigLoader.load(yaml, bytes, cassettesFolder);
        } catch (ConfigException e) {
            throw new RunError(e.getMessage());
        }
        log.debug(loading.done("Loaded " + yaml.getFileName()));
        if (loop == null) {
            return loaded;
        }
        try {
            return ConfigLoader.withLoop(loaded, loop);
        } catch (IllegalArgumentException e) {
            throw new RunError("-Dresilience.loop=" + loop + ": " + e.getMessage());
        }
    }

    /** The message of a goal that failed on a bug: what to report. */
    public static String unexpected(String goal, RuntimeException e) {
        return "resilience:" + goal + " failed unexpectedly: " + e + ". Please report this with the output of mvn -e";
    }
}
