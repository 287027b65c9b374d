package dev.resilienceharness.clients.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.tool.ToolCall;
import dev.resilienceharness.trace.ToolRecord;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A team's hand-written tool loop executes the model's tool calls through {@code run.tool(...)}, as a test an adapter
 * module runs with its SDK: extend this class with a loop whose one op {@code resolve} asks "Refund order A1" with a
 * {@code refund} tool and runs each call through a {@link RefundTool}. Each execution meets the scenario's
 * {@code tool_faults:} and is on the trace as the loop's. Recorded against a {@link ScriptedProvider}, replayed
 * offline.
 *
 * @param <L> the team's loop
 */
public abstract class ToolLoopContract<L extends AgentLoop> {

    /** What the model answers once the refund ran. */
    public static final String ANSWER = "Refunded order A1.";

    private static final String YAML = """
            version: 1
            cassettes: cassettes
            policy: {max_attempts: 3, base_delay: 10ms, max_delay: 5s, max_total_wait: 30s}
            loop: %s
            tools:
              refund: {side_effects: true%s}
            scenarios:
              - name: calm
                ops: [resolve]
                faults: []
              - name: refund-timeout-after-commit
                ops: [resolve]
                faults: []
                tool_faults: {refund: [timeout_after_commit]}
            """;

    @TempDir
    Path dir;

    private final ApiShape api;
    private final Function<RefundTool, L> loops;

    /**
     * @param api the API the SDK speaks
     * @param loops a new loop of the team's that runs the refund through the given tool
     */
    protected ToolLoopContract(ApiShape api, Function<RefundTool, L> loops) {
        this.api = api;
        this.loops = loops;
    }

    private RehearsalProject recorded(String refundSettings) throws Exception {
        L calm = loops.apply(new RefundTool(false, false));
        RehearsalProject project = RehearsalProject.write(dir, YAML.formatted(calm.getClass().getName(),
                refundSettings));
        List<String> turns = switch (api) {
            case MESSAGES -> List.of(ScriptedProvider.toolUse("toolu_refund", "refund", "{\"order\":\"A1\"}"),
                    ScriptedProvider.textBlock(ANSWER));
            case GEMINI -> List.of(ScriptedProvider.functionCall("refund", "{\"order\":\"A1\"}"),
                    ScriptedProvider.textPart(ANSWER));
            default -> List.of(ScriptedProvider.toolCall("call_refund", "refund", "{\"order\":\"A1\"}"),
                    ScriptedProvider.text(ANSWER));
        };
        try (ScriptedProvider provider = ScriptedProvider.byToolResults(api, turns)) {
            project.record("calm", () -> calm, provider.live());
        }
        return project;
    }

    private static ScenarioResult check(RehearsalProject project, String scenario, AgentLoop loop) throws Exception {
        return project.replay(scenario, () -> loop, 1, EnumSet.of(Invariant.DETERMINISM, Invariant.SIDE_EFFECTS));
    }

    @Test
    void theLoopsToolExecutionIsOnTheTraceAsTheLoops() throws Exception {
        RehearsalProject project = recorded("");
        ScenarioResult result = check(project, "calm", loops.apply(new RefundTool(false, false)));
        assertEquals(List.of(), result.violations());
        assertEquals(ANSWER, result.trace().outcomes().get(0).value().get("text").asString());
        ToolRecord refund = result.trace().tools().get(0);
        assertEquals(List.of("refund"), result.trace().tools().stream().map(ToolRecord::name).toList());
        assertEquals("resolve", refund.op());
        assertEquals(1, refund.round());
        assertEquals(ToolCall.LOOP, refund.layer());
        assertEquals("none", refund.fault());
        assertEquals("{\"order\":\"A1\"}", refund.arguments());
    }

    @Test
    void aLoopThatRunsTheToolAgainAfterATimeoutAfterCommitFailsSideEffectsNamingTheLoop() throws Exception {
        RehearsalProject project = recorded("");
        RefundTool tool = new RefundTool(true, false);
        ScenarioResult result = check(project, "refund-timeout-after-commit", loops.apply(tool));
        assertEquals(2, tool.refunds());
        List<Violation> effects = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.SIDE_EFFECTS).toList();
        assertEquals(1, effects.size(), result.violations().toString());
        assertTrue(effects.get(0).message().endsWith("repeated by the loop, which retried the tool itself after it"
                + " timed out without asking the model again"), effects.get(0).message());
        assertTrue(effects.get(0).hint().startsWith("Never retry a side-effecting tool blindly after a timeout"),
                effects.get(0).hint());
    }

    @Test
    void theSameRetryPassingAnIdempotencyKeyTheToolHonoursPasses() throws Exception {
        RehearsalProject project = recorded(", idempotency_key: passed");
        RefundTool tool = new RefundTool(true, true);
        ScenarioResult result = check(project, "refund-timeout-after-commit", loops.apply(tool));
        assertEquals(List.of(), result.violations());
        assertEquals(2, tool.refunds());
        assertTrue(result.trace().tools().stream().allMatch(t -> "refund-A1".equals(t.idempotencyKey())));
    }
}
