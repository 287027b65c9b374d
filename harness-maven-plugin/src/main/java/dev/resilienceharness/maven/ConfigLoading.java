package dev.resilienceharness.maven;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/** Loads a goal's yaml, with {@code -Dresilience.loop} in place of its loop, the same in every JVM a goal runs in. */
final class ConfigLoading {

    private ConfigLoading() {
    }

    /**
     * The config in {@code yaml}, with {@code loop} (may be {@code null}) in place of the yaml's loop; a problem in
     * the yaml is an error that names the file, line and key.
     */
    static HarnessConfig load(Path yaml, String loop, Log log) throws MojoExecutionException {
        return load(yaml, loop, log, null, null);
    }

    /**
     * As {@link #load(Path, String, Log)}, telling {@code cassettesFolder} (may be {@code null}) the cassette folder
     * before the yaml's scenarios are read ({@link ConfigLoader#load(Path, Consumer)}), and {@code content} (may be
     * {@code null}) the yaml's bytes before they are read.
     */
    static HarnessConfig load(Path yaml, String loop, Log log, Consumer<Path> cassettesFolder,
            Consumer<byte[]> content) throws MojoExecutionException {
        HarnessConfig loaded;
        PhaseTime loading = PhaseTime.start(log);
        try {
            byte[] bytes = ConfigLoader.content(yaml);
            if (content != null) {
                content.accept(bytes);
            }
            loaded = ConfigLoader.load(yaml, bytes, cassettesFolder);
        } catch (ConfigException e) {
            throw new MojoExecutionException(e.getMessage());
        }
        log.debug(loading.done("Loaded " + yaml.getFileName()));
        if (loop == null) {
            return loaded;
        }
        try {
            return ConfigLoader.withLoop(loaded, loop);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("-Dresilience.loop=" + loop + ": " + e.getMessage());
        }
    }

    /** The message of a goal that failed on a bug: what to report. */
    static String unexpected(String goal, RuntimeException e) {
        return "resilience:" + goal + " failed unexpectedly: " + e + ". Please report this with the output of mvn -e";
    }
}
