package dev.resilienceharness.clients.tck;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.scenario.SetupException;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * A project in a folder, for a test that records a scenario through a loop against a {@link ScriptedProvider} and
 * then replays it offline: its {@code resilience.yaml}, its scenarios by name, the recording and the check.
 */
public final class RehearsalProject {

    private final HarnessConfig config;

    private RehearsalProject(HarnessConfig config) {
        this.config = config;
    }

    /** Writes {@code yaml} as {@code dir/resilience.yaml} and loads it. */
    public static RehearsalProject write(Path dir, String yaml) throws IOException, ConfigException {
        Path file = dir.resolve("resilience.yaml");
        Files.writeString(file, yaml);
        return new RehearsalProject(ConfigLoader.load(file));
    }

    public HarnessConfig config() {
        return config;
    }

    /** The scenario of that name. */
    public Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    /** Records the cassettes {@code scenario} misses through the loops over {@code live}, redacted as usual. */
    public LoopRecorder.Recording record(String scenario, LoopFactory loops, LiveHttp live)
            throws SetupException {
        return LoopRecorder.prepare(config, loops).recordMissing(scenario(scenario), live,
                RecordingRedaction.forConfig(config));
    }

    /** Replays {@code scenario} offline {@code runs} times, judged by {@code invariants}. */
    public ScenarioResult replay(String scenario, LoopFactory loops, int runs, Set<Invariant> invariants)
            throws SetupException {
        return Rehearsal.prepare(config, loops).check(scenario(scenario), runs, invariants);
    }
}
