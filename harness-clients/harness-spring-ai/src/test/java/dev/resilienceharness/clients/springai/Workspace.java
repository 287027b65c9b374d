package dev.resilienceharness.clients.springai;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A project folder for the tests: the {@code rehearsal/resilience.yaml} of the test resources, and a cassette for
 * each recorded exchange of {@code rehearsal/exchanges}, written as the recorder writes them (labelled with the op).
 */
final class Workspace {

    static final List<String> EXCHANGES = List.of("plan", "patch", "review");

    private final Path yaml;
    private final HarnessConfig config;

    private Workspace(Path yaml, HarnessConfig config) {
        this.yaml = yaml;
        this.config = config;
    }

    /** The test project in {@code dir}, with the cassettes of {@code exchanges}. */
    static Workspace in(Path dir, List<String> exchanges) throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.write(yaml, resource("rehearsal/resilience.yaml"));
        HarnessConfig config = ConfigLoader.load(yaml);
        CassetteStore store = new CassetteStore(config.cassettes(), VolatilePaths.of(config.volatilePaths()),
                Mode.RECORD, UnaryOperator.identity());
        for (String name : exchanges) {
            JsonNode exchange = Json.readTree(resource("rehearsal/exchanges/" + name + ".json"));
            store.write((ObjectNode) exchange.get("request"), exchange.get("response"), null,
                    exchange.get("op").asString());
        }
        return new Workspace(yaml, config);
    }

    /** The test project with every recorded exchange. */
    static Workspace in(Path dir) throws Exception {
        return in(dir, EXCHANGES);
    }

    HarnessConfig config() {
        return config;
    }

    Path cassettes() {
        return config.cassettes();
    }

    Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no scenario " + name + " in " + yaml));
    }

    Rehearsal rehearsal(LoopFactory loops) throws Exception {
        return Rehearsal.prepare(config, loops);
    }

    static byte[] resource(String name) {
        try (InputStream in = Workspace.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("test resource " + name + " is missing");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
