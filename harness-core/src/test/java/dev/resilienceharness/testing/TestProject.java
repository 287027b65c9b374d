package dev.resilienceharness.testing;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.VolatilePaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** A throwaway project on disk: a resilience.yaml and a cassette per workshop-style op. */
public final class TestProject {

    private TestProject() {
    }

    /** Writes {@code yaml} and a cassette answering {@code {"op": name}} for each op, then loads the config. */
    public static HarnessConfig create(Path dir, String yaml, String... ops) throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), yaml, StandardCharsets.UTF_8);
        CassetteStore store = CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(java.util.List.of()));
        for (String op : ops) {
            ObjectNode request = JsonNodeFactory.instance.objectNode().put("op", op);
            ObjectNode response = JsonNodeFactory.instance.objectNode().put("done", op);
            store.write(request, response, null);
        }
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }
}
