package dev.resilienceharness.clients.langchain4j;

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

/**
 * The tools langchain4j executes, through an AiService built by {@link HarnessLangChain4j#aiServices} or a team's
 * own loop on {@link HarnessLangChain4j#tools}, run through the run's tool gate: they meet the scenario's
 * {@code tool_faults:} as langchain4j sees a tool's own exception, and are in the trace with their op, round, layer
 * and fault. Recorded against a provider on 127.0.0.1, replayed offline.
 */
class Langchain4jToolsTest {

    @TempDir
    Path dir;

    private ToolTurns recorded(String refundSettings) throws Exception {
        return ToolTurns.recorded(dir, ToolLoop.class, refundSettings, ToolLoop::new);
    }

    private static void assertRefund(ToolRecord refund, String fault, ToolRecord.Result result, boolean committed) {
        assertEquals(RunToolExecutor.LAYER, refund.layer());
        ToolTurns.assertRefund(refund, "langchain4j", fault, result, committed);
    }

    /** The fault's message went to the model as the refund's result, and the turn ended with the model's answer. */
    private ScenarioResult answeredAfter(String scenario, String modelReceives, ToolLoop loop) throws Exception {
        ToolTurns turns = recorded("");
        turns.answerAfter(modelReceives);
        ScenarioResult result = turns.check(scenario, loop);
        assertEquals(List.of(), result.violations(), lines(result));
        assertNull(result.trace().failure(), lines(result));
        assertEquals(ToolLoop.ANSWER, result.trace().outcomes().get(0).value().get("text").asString());
        assertEquals(3, result.trace().calls().size());
        return result;
    }

    @Test
    void anAiServicesTwoToolsOverThreeRoundsOfOneOpAreOnTheTrace() throws Exception {
        ToolTurns turns = recorded("");
        assertEquals(3, turns.requests().size(), "one cassette per round");
        assertEquals("{\"status\":\"refunded\",\"refund_id\":\"r-A1\"}",
                ToolTurns.toolResults(turns.requests().get(2).get("request")).get(1).get("content").asString());
        ToolLoop loop = new ToolLoop();
        ScenarioResult result = Rehearsal.prepare(turns.config(), turns.loops(loop))
                .check(turns.scenario("calm"), 2, CHECKED);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        assertEquals(ToolLoop.ANSWER, trace.outcomes().get(0).value().get("text").asString());
        assertEquals(List.of("resolve", "resolve", "resolve"), trace.calls().stream().map(CallRecord::op).toList());
        assertEquals(List.of("lookup_order", "refund"), trace.tools().stream().map(ToolRecord::name).toList());
        assertEquals(List.of(1, 2), trace.tools().stream().map(ToolRecord::round).toList());
        assertTrue(trace.tools().stream().allMatch(t -> t.layer().equals("langchain4j") && t.fault().equals("none")
                && t.op().equals("resolve") && t.committed()));
        assertEquals(1, loop.refunds.get());
    }

    @Test
    void anErrorFaultGoesBackToTheModelAsATools() throws Exception {
        ToolLoop loop = new ToolLoop();
        ScenarioResult result = answeredAfter("refund-error",
                "tool 'refund' failed (injected error fault on its execution 1)", loop);
        assertRefund(refund(result.trace()), "error", ToolRecord.Result.ERROR, false);
        assertEquals(0, loop.refunds.get(), "the tool's code never ran");
    }

    @Test
    void aTimeoutGoesBackToTheModelAsLangchain4jsDefaultHandlerSendsAnyToolException() throws Exception {
        ToolLoop loop = new ToolLoop();
        ScenarioResult result = answeredAfter("refund-timeout", "tool 'refund' timed out after 30s (injected timeout)",
                loop);
        ToolRecord refund = refund(result.trace());
        assertRefund(refund, "timeout", ToolRecord.Result.TIMEOUT, false);
        assertEquals(Duration.ofSeconds(30).toNanos(), refund.endNanos() - refund.atNanos(), "on the virtual clock");
        assertEquals(0, loop.refunds.get());
    }

    @Test
    void aSlowToolAnswersLateOnTheVirtualClock() throws Exception {
        ToolTurns turns = recorded("");
        ToolLoop loop = new ToolLoop();
        ScenarioResult result = turns.check("refund-slow", loop);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        assertEquals(ToolLoop.ANSWER, trace.outcomes().get(0).value().get("text").asString());
        ToolRecord refund = refund(trace);
        assertRefund(refund, "slow", ToolRecord.Result.OK, true);
        assertEquals(Duration.ofSeconds(5).toNanos(), refund.endNanos() - refund.atNanos());
        assertEquals(1, loop.refunds.get());
    }

    @Test
    void anInvalidResultReachesTheModelInPlaceOfTheToolsOwn() throws Exception {
        ToolLoop loop = new ToolLoop();
        ScenarioResult result = answeredAfter("refund-invalid-result", "{\"refund_id\":\"r-A1\"}", loop);
        assertRefund(refund(result.trace()), "invalid_result", ToolRecord.Result.INVALID_RESULT, true);
        assertEquals(1, loop.refunds.get());
    }

    @Test
    void aTimeoutAfterCommitGoesBackToTheModelAfterTheToolTookEffect() throws Exception {
        ToolLoop loop = new ToolLoop();
        ScenarioResult result = answeredAfter("refund-timeout-after-commit",
                "tool 'refund' timed out after 30s (injected timeout_after_commit: the tool had done its work)", loop);
        assertRefund(refund(result.trace()), "timeout_after_commit", ToolRecord.Result.TIMEOUT, true);
        assertEquals(1, loop.refunds.get());
    }

    @Test
    void aTeamsThrowingErrorHandlerGetsTheFaultAsATools() throws Exception {
        ToolTurns turns = recorded("");
        ToolLoop loop = new ToolLoop(true);
        turns.check("refund-error", loop);
        assertInstanceOf(ToolFailure.class, loop.thrown.get(0));
        turns.check("refund-timeout", loop);
        assertInstanceOf(SocketTimeoutException.class, loop.thrown.get(loop.thrown.size() - 1));
    }

    @Test
    void aLoopThatRetriesTheTurnBlindlyAfterATimeoutAfterCommitRefundsTwice() throws Exception {
        ToolTurns turns = recorded("");
        ToolLoop loop = new ToolLoop(true);
        ScenarioResult result = turns.check("refund-timeout-after-commit", loop);
        assertEquals(Status.OK, result.trace().outcomes().get(0).status(), lines(result));
        assertEquals(2, loop.refunds.get());
        List<Violation> effects = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.SIDE_EFFECTS).toList();
        assertEquals(1, effects.size(), lines(result));
        Violation v = effects.get(0);
        assertEquals("resolve", v.op());
        assertEquals("2 executions that took effect", v.actual());
        assertTrue(v.message().contains("execution 2 in round 2 (timed out for its caller under timeout_after_commit)"),
                v.message());
        assertTrue(v.message().contains("; repeated by langchain4j, which sent the tool's outcome back to the model"),
                v.message());
    }

    @Test
    void theSameBlindRetryWithAnIdempotencyKeyTheToolHonoursPasses() throws Exception {
        ToolTurns turns = recorded("idempotency_key: /refund_id");
        ScenarioResult result = turns.check("refund-timeout-after-commit", new ToolLoop(true));
        assertEquals(List.of(), result.violations(), lines(result));
        List<ToolRecord> refunds = result.trace().tools().stream().filter(t -> t.name().equals("refund")).toList();
        assertEquals(2, refunds.size());
        assertTrue(refunds.stream().allMatch(t -> "r-A1".equals(t.idempotencyKey())));
    }

    @Test
    void aCrashAfterTheRefundAndAResumeThatRunsItAgainIsARepeatedEffectOfTheRestart() throws Exception {
        ToolTurns turns = recorded("");
        ScenarioResult result = turns.check("crash-after-refund", new ToolLoop());
        RunTrace trace = result.trace();
        assertEquals(1, trace.restarts().size(), lines(result));
        List<ToolRecord> refunds = trace.tools().stream().filter(t -> t.name().equals("refund")).toList();
        assertEquals(List.of(0, 1), refunds.stream().map(ToolRecord::incarnation).toList());
        Violation v = result.violations().stream().filter(x -> x.invariant() == Invariant.SIDE_EFFECTS).findFirst()
                .orElseThrow(() -> new AssertionError(lines(result)));
        assertTrue(v.message().endsWith("repeated by langchain4j after a restart: the resumed op ran its rounds again"),
                v.message());
    }

    @Test
    void aTeamsOwnLoopOnTheToolsExecutorsGetsAFaultAsTheDefaultToolExecutorAnswersATools() throws Exception {
        ToolTurns turns = ToolTurns.recorded(dir, ToolLoop.class, "", DirectToolLoop::new);
        // new DefaultToolExecutor(object, method) answers a method's exception with its message, as an error result.
        turns.answerAfter("tool 'refund' failed (injected error fault on its execution 1)");
        ScenarioResult result = turns.check("refund-error", new DirectToolLoop());
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(ToolLoop.ANSWER, result.trace().outcomes().get(0).value().get("text").asString(), lines(result));
        assertRefund(refund(result.trace()), "error", ToolRecord.Result.ERROR, false);
        ScenarioResult calm = turns.check("calm", new DirectToolLoop());
        assertEquals(List.of("lookup_order", "refund"), calm.trace().tools().stream().map(ToolRecord::name).toList());
        assertTrue(calm.trace().tools().stream().allMatch(t -> t.layer().equals("langchain4j") && t.committed()));
    }
}
