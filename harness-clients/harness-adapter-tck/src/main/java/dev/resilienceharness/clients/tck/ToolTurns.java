package dev.resilienceharness.clients.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.scenario.SetupException;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.ToolRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A project whose one op is a refund turn on Chat Completions: its yaml declares the tools {@code lookup_order} and
 * {@code refund} and the tool-fault scenarios, its cassettes are the calm turn recorded through the team's loop
 * against a {@link ScriptedProvider} (look order A1 up, refund it, answer {@link #ANSWER}), and a test adds the last
 * round's request as the model would see it after a fault ({@link #answerAfter}).
 */
public final class ToolTurns {

    /** What the team's loop asks the model. */
    public static final String PROMPT = "Refund order A1, it arrived broken";

    /** What the model answers once the refund ran. */
    public static final String ANSWER = "Refunded order A1 (refund r-A1).";

    /** Not the call budget: it counts a turn's rounds as retries until it knows rounds ({@code policy.max_rounds}). */
    public static final Set<Invariant> CHECKED = EnumSet.of(Invariant.DETERMINISM, Invariant.PARTIAL_WORK,
            Invariant.BOUNDED_WAIT, Invariant.EXPECTATIONS, Invariant.SIDE_EFFECTS);

    private static final String YAML = """
            version: 1
            cassettes: cassettes
            policy:
              max_attempts: 3
              base_delay: 10ms
              max_delay: 5s
              max_total_wait: 30s
            loop: %s
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

    private final RehearsalProject project;

    private ToolTurns(RehearsalProject project) {
        this.project = project;
    }

    /**
     * The project in {@code dir} naming {@code loop} as its loop, the refund tool declared with {@code refundSettings}
     * too, its calm turn recorded through {@code loops}.
     */
    public static ToolTurns recorded(Path dir, Class<? extends AgentLoop> loop, String refundSettings,
            LoopFactory loops) throws Exception {
        RehearsalProject project = RehearsalProject.write(dir, YAML.formatted(loop.getName(),
                refundSettings.isEmpty() ? "" : "\n    " + refundSettings));
        try (ScriptedProvider provider = ScriptedProvider.byToolResults(ApiShape.CHAT_COMPLETIONS, List.of(
                ScriptedProvider.toolCall("call_lookup", "lookup_order", "{\"order\":\"A1\"}"),
                ScriptedProvider.toolCall("call_refund", "refund", "{\"order\":\"A1\",\"refund_id\":\"r-A1\"}"),
                ScriptedProvider.text(ANSWER)))) {
            project.record("calm", loops, provider.live());
        }
        return new ToolTurns(project);
    }

    public HarnessConfig config() {
        return project.config();
    }

    public Scenario scenario(String name) {
        return project.scenario(name);
    }

    /** Replays {@code scenario} once offline through {@code loop}, judged by {@link #CHECKED}. */
    public ScenarioResult check(String scenario, AgentLoop loop) throws SetupException {
        return project.replay(scenario, loops(loop), 1, CHECKED);
    }

    /** The recorded requests of the op, in the order of their rounds (by how many tool results they carry). */
    public List<ObjectNode> requests() throws Exception {
        List<ObjectNode> out = new ArrayList<>();
        try (var files = Files.list(config().cassettes())) {
            for (Path f : files.toList()) {
                out.add((ObjectNode) Json.readTree(Files.readAllBytes(f)));
            }
        }
        out.sort(Comparator.comparingInt(c -> toolResults(c.get("request")).size()));
        return out;
    }

    /**
     * Records the model's last answer once more, for the request that carries {@code refundResult} as the refund's
     * result: what the model receives after a fault. A run whose request differs misses its cassette.
     */
    public void answerAfter(String refundResult) throws Exception {
        ObjectNode last = requests().get(2);
        ObjectNode request = (ObjectNode) last.get("request").deepCopy();
        List<ObjectNode> results = toolResults(request);
        results.get(results.size() - 1).put("content", refundResult);
        new CassetteStore(config().cassettes(), VolatilePaths.of(config().volatilePaths()), Mode.RECORD,
                UnaryOperator.identity()).write(request, last.get("response"), null, last.get("op").asString());
    }

    /** The request's {@code tool} messages, in order. */
    public static List<ObjectNode> toolResults(JsonNode request) {
        List<ObjectNode> out = new ArrayList<>();
        for (JsonNode m : (ArrayNode) request.get("messages")) {
            if ("tool".equals(m.path("role").asString())) {
                out.add((ObjectNode) m);
            }
        }
        return out;
    }

    /** A factory that hands out {@code loop}, so that a test reads what the loop saw after the check. */
    public LoopFactory loops(AgentLoop loop) {
        return () -> loop;
    }

    /** The result's violations, and the run's failure if any, one a line: the message of a failed assertion. */
    public static String lines(ScenarioResult result) {
        StringBuilder sb = new StringBuilder();
        result.violations().forEach(v -> sb.append(v.line()).append('\n'));
        if (result.trace().failure() != null) {
            sb.append(result.trace().failure()).append('\n');
        }
        return sb.toString();
    }

    /** Asserts where and how the refund ran: on the model's second answer in op {@code resolve}, in {@code layer}. */
    public static void assertRefund(ToolRecord refund, String layer, String fault, ToolRecord.Result result,
            boolean committed) {
        assertEquals("resolve", refund.op());
        assertEquals(2, refund.round(), "the refund ran on the model's second answer");
        assertEquals(layer, refund.layer());
        assertEquals(fault, refund.fault());
        assertEquals(result, refund.result());
        assertEquals(committed, refund.committed());
        assertEquals("{\"order\":\"A1\",\"refund_id\":\"r-A1\"}", refund.arguments());
    }

    /** The trace's first execution of the refund tool. */
    public static ToolRecord refund(RunTrace trace) {
        return trace.tools().stream().filter(t -> t.name().equals("refund")).findFirst().orElseThrow();
    }
}
