package dev.resilienceharness.clients.springai;

import static dev.resilienceharness.clients.tck.ToolTurns.CHECKED;
import static dev.resilienceharness.clients.tck.ToolTurns.lines;
import static dev.resilienceharness.clients.tck.ToolTurns.refund;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.clients.tck.ToolTurns;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.tool.ToolFailure;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.ToolRecord;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

    @TempDir
    Path dir;

    private ToolTurns recorded(String refundSettings) throws Exception {
        return ToolTurns.recorded(dir, ToolLoop.class, refundSettings, ToolLoop::new);
    }

    private static void assertRefund(ToolRecord refund, String fault, ToolRecord.Result result, boolean committed) {
        assertEquals(RunToolCallingManager.LAYER, refund.layer());
        ToolTurns.assertRefund(refund, "Spring AI", fault, result, committed);
    }

    @Test
    void aChatClientsTwoToolsOverThreeRoundsOfOneOpAreOnTheTrace() throws Exception {
        ToolTurns turns = recorded("");
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
        assertEquals(1, loop.refunds.get(), "the tool's own code ran once");
    }

    @Test
    void anErrorFaultGoesBackToTheModelAsATools() throws Exception {
        ToolTurns turns = recorded("");
        // Spring AI's default processor sends the message of a tool's RuntimeException to the model.
        turns.answerAfter("tool 'refund' failed (injected error fault on its execution 1)");
        ToolLoop loop = new ToolLoop(false);
        ScenarioResult result = turns.check("refund-error", loop);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        assertEquals(Status.OK, trace.outcomes().get(0).status(), lines(result));
        assertEquals(3, trace.calls().size());
        assertRefund(refund(trace), "error", ToolRecord.Result.ERROR, false);
        assertEquals(0, loop.refunds.get(), "the tool's code never ran");
    }

    @Test
    void theTeamsOwnToolCallingManagerDecidesAsForItsOwnExceptions() throws Exception {
        ToolTurns turns = recorded("");
        ToolCallingManager alwaysThrow = ToolCallingManager.builder()
                .toolExecutionExceptionProcessor(new DefaultToolExecutionExceptionProcessor(true)).build();
        ToolLoop loop = new ToolLoop(run -> HarnessSpringAi.chatClientBuilder(run, HarnessSpringAi.chatModel(run),
                alwaysThrow).build(), false);
        ScenarioResult result = turns.check("refund-error", loop);
        Outcome outcome = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, outcome.status(), lines(result));
        ToolExecutionException thrown = (ToolExecutionException) loop.thrown.get(0);
        assertEquals("refund", thrown.getToolDefinition().name());
        assertInstanceOf(ToolFailure.class, thrown.getCause());
        assertEquals(2, result.trace().calls().size(), "the model was not asked again");
        assertRefund(refund(result.trace()), "error", ToolRecord.Result.ERROR, false);
    }

    @Test
    void aTimeoutIsACheckedExceptionThatSpringAiRethrowsToTheLoop() throws Exception {
        ToolTurns turns = recorded("");
        ToolLoop loop = new ToolLoop(false);
        ScenarioResult result = turns.check("refund-timeout", loop);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        assertEquals(Status.DEGRADED, trace.outcomes().get(0).status());
        // As for a @Tool method that throws an IOException: wrapped, then rethrown, not sent to the model.
        ToolExecutionException thrown = (ToolExecutionException) loop.thrown.get(0);
        SocketTimeoutException cause = assertInstanceOf(SocketTimeoutException.class, thrown.getCause());
        assertEquals("tool 'refund' timed out after 30s (injected timeout)", cause.getMessage());
        assertEquals(2, trace.calls().size());
        ToolRecord refund = refund(trace);
        assertRefund(refund, "timeout", ToolRecord.Result.TIMEOUT, false);
        assertEquals(Duration.ofSeconds(30).toNanos(), refund.endNanos() - refund.atNanos(), "on the virtual clock");
        assertEquals(0, loop.refunds.get());
    }

    @Test
    void aSlowToolAnswersLateOnTheVirtualClockAndTheModelGetsItsResult() throws Exception {
        ToolTurns turns = recorded("");
        ToolLoop loop = new ToolLoop(false);
        ScenarioResult result = turns.check("refund-slow", loop);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        assertEquals(ToolLoop.ANSWER, trace.outcomes().get(0).value().get("text").asString());
        ToolRecord refund = refund(trace);
        assertRefund(refund, "slow", ToolRecord.Result.OK, true);
        assertEquals(Duration.ofSeconds(5).toNanos(), refund.endNanos() - refund.atNanos());
        assertEquals(Duration.ofSeconds(5).toNanos(), trace.calls().get(2).atNanos() - trace.calls().get(1).atNanos());
        assertEquals(1, loop.refunds.get());
    }

    @Test
    void anInvalidResultReachesTheModelInPlaceOfTheToolsOwn() throws Exception {
        ToolTurns turns = recorded("");
        // The refund's result without its required status: what breaks its output_schema.
        turns.answerAfter("{\"refund_id\":\"r-A1\"}");
        ToolLoop loop = new ToolLoop(false);
        ScenarioResult result = turns.check("refund-invalid-result", loop);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        assertEquals(Status.OK, trace.outcomes().get(0).status(), lines(result));
        assertRefund(refund(trace), "invalid_result", ToolRecord.Result.INVALID_RESULT, true);
        assertEquals(1, loop.refunds.get());
    }

    @Test
    void aTimeoutAfterCommitIsRethrownAfterTheToolTookEffect() throws Exception {
        ToolTurns turns = recorded("");
        ToolLoop loop = new ToolLoop(false);
        ScenarioResult result = turns.check("refund-timeout-after-commit", loop);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(Status.DEGRADED, result.trace().outcomes().get(0).status());
        assertInstanceOf(SocketTimeoutException.class, loop.thrown.get(0).getCause());
        assertRefund(refund(result.trace()), "timeout_after_commit", ToolRecord.Result.TIMEOUT, true);
        assertEquals(1, loop.refunds.get(), "the tool's code ran before its caller timed out");
    }

    @Test
    void aLoopThatRetriesTheTurnBlindlyAfterATimeoutAfterCommitRefundsTwice() throws Exception {
        ToolTurns turns = recorded("");
        ToolLoop loop = new ToolLoop(true);
        ScenarioResult result = turns.check("refund-timeout-after-commit", loop);
        RunTrace trace = result.trace();
        assertEquals(Status.OK, trace.outcomes().get(0).status(), lines(result));
        assertEquals(2, loop.refunds.get());
        List<Violation> effects = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.SIDE_EFFECTS).toList();
        assertEquals(1, effects.size(), lines(result));
        Violation v = effects.get(0);
        assertEquals("resolve", v.op());
        assertEquals("1 execution that took effect", v.bound());
        assertEquals("2 executions that took effect", v.actual());
        assertTrue(v.message().startsWith("tool 'refund' took effect 2 times for one logical call"), v.message());
        assertTrue(v.message().contains("execution 2 in round 2 (timed out for its caller under timeout_after_commit)"),
                v.message());
        assertTrue(v.message().contains("; repeated by Spring AI, which sent the tool's outcome back to the model"),
                v.message());
    }

    @Test
    void theSameBlindRetryWithAnIdempotencyKeyTheToolHonoursPasses() throws Exception {
        ToolTurns turns = recorded("idempotency_key: /refund_id");
        ToolLoop loop = new ToolLoop(true);
        ScenarioResult result = turns.check("refund-timeout-after-commit", loop);
        assertEquals(List.of(), result.violations(), lines(result));
        List<ToolRecord> refunds = result.trace().tools().stream().filter(t -> t.name().equals("refund")).toList();
        assertEquals(2, refunds.size());
        assertTrue(refunds.stream().allMatch(t -> "r-A1".equals(t.idempotencyKey())));
    }

    @Test
    void aCrashAfterTheRefundAndAResumeThatRunsItAgainIsARepeatedEffectOfTheRestart() throws Exception {
        ToolTurns turns = recorded("");
        ToolLoop loop = new ToolLoop(false);
        ScenarioResult result = turns.check("crash-after-refund", loop);
        RunTrace trace = result.trace();
        assertEquals(1, trace.restarts().size(), lines(result));
        assertEquals(Status.OK, trace.outcomes().get(0).status(), lines(result));
        List<ToolRecord> refunds = trace.tools().stream().filter(t -> t.name().equals("refund")).toList();
        assertEquals(List.of(0, 1), refunds.stream().map(ToolRecord::incarnation).toList());
        Violation v = result.violations().stream().filter(x -> x.invariant() == Invariant.SIDE_EFFECTS).findFirst()
                .orElseThrow(() -> new AssertionError(lines(result)));
        assertTrue(v.message().endsWith("repeated by Spring AI after a restart: the resumed op ran its rounds again"),
                v.message());
        assertTrue(v.hint().startsWith("Record the tool's effect in the journal before the process can die"),
                v.hint());
    }

    @Test
    void aStreamingChatClientRunsItsToolsThroughTheGateToo() throws Exception {
        ToolTurns turns = recorded("");
        turns.answerAfter("tool 'refund' failed (injected error fault on its execution 1)");
        ToolLoop loop = new ToolLoop(false).streaming();
        ScenarioResult result = turns.check("refund-error", loop);
        assertNull(result.trace().failure(), lines(result));
        assertEquals(ToolLoop.ANSWER, result.trace().outcomes().get(0).value().get("text").asString(), lines(result));
        // Each round streamed: the calls' cassettes, recorded whole, were replayed as event streams.
        assertEquals(3, result.trace().streams().size(), result.trace().streams().toString());
        assertEquals(List.of("lookup_order", "refund"),
                result.trace().tools().stream().map(ToolRecord::name).toList());
        assertRefund(refund(result.trace()), "error", ToolRecord.Result.ERROR, false);
    }
}
