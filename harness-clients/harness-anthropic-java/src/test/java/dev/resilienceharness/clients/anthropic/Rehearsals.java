package dev.resilienceharness.clients.anthropic;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.scenario.SetupException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A project on disk for one test, as a team has it: a {@code resilience.yaml} and a folder of cassettes recorded
 * through anthropic-java (copied from the test resources), rehearsed with a loop the test writes.
 */
final class Rehearsals {

    private final HarnessConfig config;
    private final Rehearsal rehearsal;

    private Rehearsals(HarnessConfig config, Rehearsal rehearsal) {
        this.config = config;
        this.rehearsal = rehearsal;
    }

    /**
     * Writes {@code yaml} into {@code dir}, copies the cassettes of resource folder {@code cassettes} (or none, when
     * {@code null}) into {@code dir/cassettes}, and prepares a rehearsal of {@code loop}.
     */
    static Rehearsals of(Path dir, String yaml, String cassettes, AgentLoop loop) {
        HarnessConfig config = project(dir, yaml, cassettes);
        try {
            return new Rehearsals(config, Rehearsal.prepare(config, () -> loop));
        } catch (SetupException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Writes the project into {@code dir} and loads its config. */
    static HarnessConfig project(Path dir, String yaml, String cassettes) {
        try {
            Path target = Files.createDirectories(dir.resolve("cassettes"));
            if (cassettes != null) {
                copy(cassettes, target);
            }
            Path file = dir.resolve("resilience.yaml");
            Files.writeString(file, yaml, StandardCharsets.UTF_8);
            return ConfigLoader.load(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The folder the cassettes are in. */
    Path cassettes() {
        return config.cassettes();
    }

    HarnessConfig config() {
        return config;
    }

    /** Runs scenario {@code name} once and checks the run's invariants. */
    ScenarioResult check(String name) {
        return rehearsal.check(scenario(name), 1, Rehearsal.RUN_INVARIANTS);
    }

    Scenario scenario(String name) {
        return scenario(config, name);
    }

    /** The scenario of {@code config} called {@code name}. */
    static Scenario scenario(HarnessConfig config, String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static void copy(String folder, Path target) throws IOException {
        URL url = Rehearsals.class.getResource("/" + folder);
        if (url == null) {
            throw new IllegalArgumentException("no test resource folder " + folder);
        }
        Path source;
        try {
            source = Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(e);
        }
        try (Stream<Path> files = Files.list(source)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                try (InputStream in = Files.newInputStream(f)) {
                    Files.copy(in, target.resolve(f.getFileName().toString()));
                }
            }
        }
    }
}
