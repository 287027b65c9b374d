package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.tool.ToolCall;
import dev.resilienceharness.tool.ToolFailure;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.ToolRecord;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.execution.DefaultToolExecutionExceptionProcessor;
import org.springframework.ai.tool.execution.ToolExecutionException;

/**
 * The tools Spring AI executes for a chat model built by {@link HarnessSpringAi} run through the run's tool gate: a
 * ChatClient's {@code @Tool} methods meet the scenario's {@code tool_faults:} as Spring AI sees a tool's own
 * exception, and are in the trace with their op, round, layer and fault. Recorded against a provider on 127.0.0.1,
 * replayed offline.
 */
class SpringAiToolsTest {

    /** Not the call budget: it counts a turn's rounds as retries until it knows rounds ({@code policy.max_rounds}). */
    static final Set<Invariant> CHECKED = EnumSet.of(Invariant.DETERMINISM, Invariant.PARTIAL_WORK,
            Invariant.BOUNDED_WAIT, Invariant.EXPECTATIONS, Invariant.SIDE_EFFECTS);

    @TempDir
    Path dir;

    private static ScenarioResult check(ToolTurns turns, String scenario, ToolLoop loop) throws Exception {
        return Rehearsal.prepare(turns.config(), turns.loops(loop)).check(turns.scenario(scenario), 1, CHECKED);
    }

    private static String lines(ScenarioResult result) {
        StringBuilder sb = new StringBuilder();
        result.violations().forEach(v -> sb.append(v.line()).append('\n'));
        if (result.trace().failure() != null) {
            sb.append(result.trace().failure()).append('\n');
        }
        return sb.toString();
    }

    private static ToolRecord refund(RunTrace trace) {
        return trace.tools().stream().filter(t -> t.name().equals("refund")).findFirst().orElseThrow();
    }

    private static void assertRefund(ToolRecord refund, String fault, ToolRecord.Result result, boolean committed) {
        assertEquals("resolve", refund.op());
        assertEquals(2, refund.round(), "the refund ran on the model's second answer");
        assertEquals(RunToolCallingManager.LAYER, refund.layer());
        assertEquals("Spring AI", refund.layer());
        assertEquals(fault, refund.fault());
        assertEquals(result, refund.result());
        assertEquals(committed, refund.committed());
        assertEquals("{\"order\":\"A1\",\"refund_id\":\"r-A1\"}", refund.arguments());
    }

    @Test
    void aChatClientsTwoToolsOverThreeRoundsOfOneOpAreOnTheTrace() throws Exception {
        ToolTurns turns = ToolTurns.recorded(dir);
        List<tools.jackson.databind.node.ObjectNode> recorded = turns.requests();
        assertEquals(3, recorded.size(), "one cassette per round");
        // Spring AI sends a tool's String result as JSON text, and its record result as a JSON object.
        assertEquals("\"order A1: 1 kettle, delivered broken\"",
                ToolTurns.toolResults(recorded.get(1).get("request")).get(0).get("content").asString());
        assertEquals("{\"status\":\"refunded\",\"refund_id\":\"r-A1\"}",
                ToolTurns.toolResults(recorded.get(2).get("request")).get(1).get("content").asString());

        ToolLoop loop = new ToolLoop(false);
        ScenarioResult result = Rehearsal.prepare(turns.config(), turns.loops(loop))
                .check(turns.scenario("calm"), 2, CHECKED);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        assertNull(trace.failure());
        assertEquals(ToolLoop.ANSWER, trace.outcomes().get(0).value().get("text").asString());
        assertEquals(List.of("resolve", "resolve", "resolve"), trace.calls().stream().map(CallRecord::op).toList());
        assertEquals(List.of("lookup_order", "refund"), trace.tools().stream().map(ToolRecord::name).toList());
        assertEquals(List.of(1, 2), trace.tools().stream().map(ToolRecord::round).toList());
        assertEquals(List.of(0, 1), trace.tools().stream().map(ToolRecord::afterCall).toList());
        for (ToolRecord t : trace.tools()) {
            assertEquals("resolve", t.op());
            assertEquals("Spring AI", t.layer());
            assertEquals("none", t.fault());
            assertEquals(ToolRecord.Result.OK, t.result());
            assertTrue(t.committed());
        }
        assertEquals("{\"order\":\"A1\"}", trace.tools().get(0).arguments());
        assertEquals(2, loop.refunds.get(), "the tool's own code ran once in each of the two runs");
    }
}
