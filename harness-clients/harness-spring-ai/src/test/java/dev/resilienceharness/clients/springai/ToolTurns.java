package dev.resilienceharness.clients.springai;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A project whose one op is a tool turn: its yaml declares the tools and the tool-fault scenarios, its cassettes are
 * the calm turn recorded through {@link ToolLoop} against a {@link ScriptedProvider}, and a test adds the last
 * round's request as the model would see it after a fault ({@link #answerAfter}).
 */
final class ToolTurns {

    static final String YAML = """
            version: 1
            cassettes: cassettes
            policy:
              max_attempts: 3
              base_delay: 10ms
              max_delay: 5s
              max_total_wait: 30s
            loop: dev.resilienceharness.clients.springai.ToolLoop
            tools:
              lookup_order: {}
              refund:
                side_effects: true%s
                output_schema:
                  type: object
                  required: [status, refund_id]
                  properties: {status: {type: string}, refund_id: {type: string}}
            scenarios:
              - name: calm
                ops: [resolve]
                faults: []
              - name: refund-error
                ops: [resolve]
                faults: []
                tool_faults: {refund: [error]}
              - name: refund-timeout
                ops: [resolve]
                faults: []
                tool_faults: {refund: [timeout]}
              - name: refund-slow
                ops: [resolve]
                faults: []
                tool_faults: {refund: [{slow: 5s}]}
              - name: refund-invalid-result
                ops: [resolve]
                faults: []
                tool_faults: {refund: [invalid_result]}
              - name: refund-timeout-after-commit
                ops: [resolve]
                faults: []
                tool_faults: {refund: [timeout_after_commit]}
              - name: crash-after-refund
                ops: [resolve]
                faults: [none, none, crash]
            """;

    private final HarnessConfig config;

    private ToolTurns(HarnessConfig config) {
        this.config = config;
    }

    /** The project in {@code dir}, the refund tool declared with {@code refundSettings} too, its calm turn recorded. */
    static ToolTurns recorded(Path dir, String refundSettings) throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, YAML.formatted(refundSettings.isEmpty() ? "" : "\n    " + refundSettings));
        HarnessConfig config = ConfigLoader.load(yaml);
        try (ScriptedProvider provider = ScriptedProvider.refundTurn()) {
            LoopRecorder.prepare(config, ToolLoop::new).recordMissing(scenario(config, "calm"), provider.live(),
                    RecordingRedaction.forConfig(config));
        }
        return new ToolTurns(config);
    }

    static ToolTurns recorded(Path dir) throws Exception {
        return recorded(dir, "");
    }

    HarnessConfig config() {
        return config;
    }

    Scenario scenario(String name) {
        return scenario(config, name);
    }

    private static Scenario scenario(HarnessConfig config, String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    /** The recorded requests of the op, in the order of their rounds (by how many tool results they carry). */
    List<ObjectNode> requests() throws Exception {
        List<ObjectNode> out = new ArrayList<>();
        try (var files = Files.list(config.cassettes())) {
            for (Path f : files.toList()) {
                out.add((ObjectNode) Json.readTree(Files.readAllBytes(f)));
            }
        }
        out.sort(java.util.Comparator.comparingInt(c -> toolResults(c.get("request")).size()));
        return out;
    }

    /**
     * Records the model's last answer once more, for the request that carries {@code refundResult} as the refund's
     * result: what the model receives after a fault. A run whose request differs misses its cassette.
     */
    void answerAfter(String refundResult) throws Exception {
        ObjectNode last = requests().get(2);
        ObjectNode request = (ObjectNode) last.get("request").deepCopy();
        List<ObjectNode> results = toolResults(request);
        results.get(results.size() - 1).put("content", refundResult);
        new CassetteStore(config.cassettes(), VolatilePaths.of(config.volatilePaths()), Mode.RECORD,
                UnaryOperator.identity()).write(request, last.get("response"), null, last.get("op").asString());
    }

    static List<ObjectNode> toolResults(JsonNode request) {
        List<ObjectNode> out = new ArrayList<>();
        for (JsonNode m : (ArrayNode) request.get("messages")) {
            if ("tool".equals(m.path("role").asString())) {
                out.add((ObjectNode) m);
            }
        }
        return out;
    }

    LoopFactory loops(ToolLoop loop) {
        return () -> loop;
    }
}
