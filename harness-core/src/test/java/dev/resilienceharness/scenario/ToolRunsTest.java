package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.tool.ToolCall;
import dev.resilienceharness.tool.ToolFailure;
import dev.resilienceharness.trace.ToolRecord;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.ToolSchemas;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tool executions through {@code LoopRun.tool} in a real rehearsal: each tool fault as the loop's code meets it, on
 * the virtual clock, in the trace; and the side_effects invariant and the tool budget judging what the loop repeated.
 */
class ToolRunsTest {

    private static final String YAML = """
            version: 1
            loop: com.acme.RefundLoop
            policy: {max_total_wait: 120s}
            tools:
              refund: {side_effects: true, timeout: 10s, output_schema: {type: object, required: [refunded],
                       properties: {refunded: {type: number}}}}
              keyed_refund: {side_effects: true, idempotency_key: /refund_id}
              passed_refund: {side_effects: true, idempotency_key: passed}
              lookup: {}
            budget: {max_identical_tool_calls: 3, max_tool_calls_per_op: 6}
            scenarios:
              - name: each-fault
                ops: [resolve]
                tool_faults:
                  lookup: [error, timeout, {slow: 5s}, {slow: 45s}, none]
                  refund: [invalid_result, timeout_after_commit]
              - name: blind-retry
                ops: [resolve]
                tool_faults: {refund: [timeout_after_commit]}
              - name: keyed-retry
                ops: [resolve]
                tool_faults: {keyed_refund: [timeout_after_commit]}
              - name: passed-key-retry
                ops: [resolve]
                tool_faults: {passed_refund: [timeout_after_commit]}
              - name: crash-after-refund
                ops: [resolve, notify]
                faults: [none, crash]
              - name: looping
                ops: [resolve]
            """;

    @TempDir
    Path dir;

    /** What each of the loop's tool executions came to, as the loop saw it. */
    private static final List<String> seen = new ArrayList<>();

    private static String attempt(LoopRun run, ToolCall call, AtomicInteger ran) {
        try {
            String result = run.tool(call, () -> {
                ran.incrementAndGet();
                return "{\"refunded\": 12.5}";
            });
            return "ok " + result;
        } catch (ToolFailure e) {
            return "error " + e.getMessage();
        } catch (SocketTimeoutException e) {
            return "timeout " + e.getMessage();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Outcome call(LoopRun run, String op) {
        try {
            return Outcome.ok(op, run.transport().call(run.request(op)).body(), 1);
        } catch (CallFailure e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void eachToolFaultReachesTheLoopAsItsToolsCallerWouldSeeItOnTheVirtualClock() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "resolve", "notify");
        AtomicInteger ran = new AtomicInteger();
        List<String> results = new ArrayList<>();
        List<Long> clock = new ArrayList<>();
        AgentLoop loop = run -> {
            Outcome o = call(run, "resolve");
            for (int i = 0; i < 5; i++) {
                results.add(attempt(run, ToolCall.of("lookup", "{\"order\": 7}"), ran));
                clock.add(run.now().toEpochMilli());
            }
            results.add(attempt(run, ToolCall.of("refund", "{\"order\": 7}"), ran));
            results.add(attempt(run, ToolCall.of("refund", "{\"order\": 8}"), ran));
            return List.of(o);
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "each-fault"), 1, Rehearsal.runInvariants(config));
        assertTrue(results.get(0).startsWith("error tool 'lookup' failed (injected error fault"), results.get(0));
        assertTrue(results.get(1).startsWith("timeout tool 'lookup' timed out after 30s"), results.get(1));
        assertEquals("ok {\"refunded\": 12.5}", results.get(2));
        assertTrue(results.get(3).startsWith("timeout tool 'lookup' timed out after 30s (injected slow 45s)"),
                results.get(3));
        assertEquals("ok {\"refunded\": 12.5}", results.get(4));
        // The timeout ran out the tool's 30 s; slow took 5 s; the slow past the timeout took the timeout's 30 s.
        // Each of determinism's two runs starts at the same virtual time and meets the same faults.
        assertEquals(List.of(0L, 30_000L, 35_000L, 65_000L, 65_000L, 0L, 30_000L, 35_000L, 65_000L, 65_000L),
                clock.stream().map(t -> t - clock.get(0)).toList());
        assertEquals(results.subList(0, 7), results.subList(7, 14));
        String invalid = results.get(5).substring("ok ".length());
        assertNotNull(ToolSchemas.violation(config.tool("refund").outputSchema(), Json.readTree(invalid)), invalid);
        assertTrue(results.get(6).startsWith("timeout tool 'refund' timed out after 10s (injected"
                + " timeout_after_commit"), results.get(6));
        // error, timeout and the slow past the timeout never reached the tool's code; slow, none, invalid_result and
        // timeout_after_commit did, in each of the two runs determinism makes.
        assertEquals(8, ran.get());

        List<ToolRecord> tools = result.trace().tools();
        assertEquals(7, tools.size());
        assertEquals(List.of("error", "timeout", "slow", "slow", "none", "invalid_result", "timeout_after_commit"),
                tools.stream().map(ToolRecord::fault).toList());
        assertEquals(List.of(ToolRecord.Result.ERROR, ToolRecord.Result.TIMEOUT, ToolRecord.Result.OK,
                ToolRecord.Result.TIMEOUT, ToolRecord.Result.OK, ToolRecord.Result.INVALID_RESULT,
                ToolRecord.Result.TIMEOUT), tools.stream().map(ToolRecord::result).toList());
        assertEquals(List.of(false, false, true, false, true, true, true),
                tools.stream().map(ToolRecord::committed).toList());
        ToolRecord first = tools.get(0);
        assertEquals("resolve", first.op());
        assertEquals(1, first.round());
        assertEquals(ToolCall.LOOP, first.layer());
        assertEquals("{\"order\":7}", first.arguments());
        assertEquals(30_000_000_000L, tools.get(1).endNanos() - tools.get(1).atNanos());
        // Two refunds with different arguments are two logical calls: no repeat. (The five lookups are over the
        // tool budget of this yaml, which the looping test looks at.)
        assertTrue(result.violations().stream().noneMatch(v -> v.invariant() != Invariant.BUDGET),
                result.violations().toString());
    }

    private static AgentLoop blindRetry(String tool, boolean passKey, AtomicInteger ran) {
        return run -> {
            Outcome o = call(run, "resolve");
            ToolCall refund = ToolCall.of(tool, "{\"order\": 7, \"refund_id\": \"r-7\"}");
            if (passKey) {
                refund = refund.idempotencyKey("resolve/order-7");
            }
            // Retries on a timeout, three times, without asking whether the first one took effect.
            for (int i = 0; i < 3; i++) {
                if (attempt(run, refund, ran).startsWith("ok")) {
                    break;
                }
            }
            return List.of(o);
        };
    }

    @Test
    void aBlindRetryAfterTimeoutAfterCommitRefundsTwiceAndFailsUnderSideEffectsNamingTheLoop() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "resolve", "notify");
        AtomicInteger ran = new AtomicInteger();
        ScenarioResult result = Rehearsal.prepare(config, () -> blindRetry("refund", false, ran))
                .check(scenario(config, "blind-retry"), 1, Rehearsal.runInvariants(config));
        // Determinism runs the scenario twice: the refund's code ran twice in each.
        assertEquals(4, ran.get());
        List<Violation> v = result.violations();
        assertEquals(1, v.size(), v.toString());
        assertEquals(Invariant.SIDE_EFFECTS, v.get(0).invariant());
        assertEquals("resolve", v.get(0).op());
        assertEquals("1 execution that took effect", v.get(0).bound());
        assertEquals("2 executions that took effect", v.get(0).actual());
        assertTrue(v.get(0).message().startsWith("tool 'refund' took effect 2 times for one logical call"),
                v.get(0).message());
        assertTrue(v.get(0).message().contains("execution 1 in round 1 (timed out for its caller under"
                + " timeout_after_commit), then execution 2 in round 1 (answered)"), v.get(0).message());
        assertTrue(v.get(0).message().endsWith("repeated by the loop, which retried the tool itself after it timed out"
                + " without asking the model again"), v.get(0).message());
        assertTrue(v.get(0).hint().startsWith("Never retry a side-effecting tool blindly after a timeout"),
                v.get(0).hint());
        assertTrue(v.get(0).hint().contains("tools.refund.idempotency_key"), v.get(0).hint());
    }

    @Test
    void theSameRetryWithAnIdempotencyKeyTheToolHonoursPasses() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "resolve", "notify");
        AtomicInteger ran = new AtomicInteger();
        ScenarioResult inArguments = Rehearsal.prepare(config, () -> blindRetry("keyed_refund", false, ran))
                .check(scenario(config, "keyed-retry"), 1, Rehearsal.runInvariants(config));
        assertTrue(inArguments.violations().isEmpty(), inArguments.violations().toString());
        assertEquals("r-7", inArguments.trace().tools().get(1).idempotencyKey());
        ScenarioResult passed = Rehearsal.prepare(config, () -> blindRetry("passed_refund", true, ran))
                .check(scenario(config, "passed-key-retry"), 1, Rehearsal.runInvariants(config));
        assertTrue(passed.violations().isEmpty(), passed.violations().toString());
        // A tool declared with a passed key, but called without one, is judged as having none.
        ScenarioResult unkeyed = Rehearsal.prepare(config, () -> blindRetry("passed_refund", false, ran))
                .check(scenario(config, "passed-key-retry"), 1, Rehearsal.runInvariants(config));
        assertEquals(List.of(Invariant.SIDE_EFFECTS), unkeyed.violations().stream().map(Violation::invariant)
                .toList());
    }

    @Test
    void aCrashAfterTheRefundRanFollowedByAResumeThatRunsItAgainFailsNamingTheRestart() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "resolve", "notify");
        AtomicInteger ran = new AtomicInteger();
        // Journals only finished turns: the refund of an unfinished turn runs again after the restart.
        AgentLoop loop = run -> {
            List<Outcome> out = new ArrayList<>(run.journal().completed());
            List<String> done = out.stream().map(Outcome::op).toList();
            if (!done.contains("resolve")) {
                try (var scope = run.op("resolve")) {
                    call(run, "resolve");
                    attempt(run, ToolCall.of("refund", "{\"order\": 7}"), ran);
                    // The turn's next model round: here the process dies.
                    Outcome o = call(run, "notify");
                    out.add(Outcome.ok("resolve", o.value(), 1));
                }
                run.journal().record(out.get(out.size() - 1));
            }
            out.add(call(run, "notify"));
            return out;
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "crash-after-refund"), 1, Rehearsal.runInvariants(config));
        assertEquals(4, ran.get());
        List<Violation> effects = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.SIDE_EFFECTS).toList();
        assertEquals(1, effects.size(), result.violations().toString());
        assertTrue(effects.get(0).message().contains("then execution 2 in round 1 of process 2 (answered)"),
                effects.get(0).message());
        assertTrue(effects.get(0).message().endsWith("repeated by the loop after a restart: the resumed op ran its"
                + " rounds again"), effects.get(0).message());
        assertTrue(effects.get(0).hint().startsWith("Record the tool's effect in the journal"), effects.get(0).hint());
    }

    @Test
    void aLoopingAgentIsCaughtByTheToolBudgetNamingTheToolAndItsArguments() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "resolve", "notify");
        AtomicInteger ran = new AtomicInteger();
        AgentLoop loop = run -> {
            Outcome o = call(run, "resolve");
            for (int i = 0; i < 4; i++) {
                attempt(run, ToolCall.of("lookup", "{\"order\": 7}"), ran);
            }
            for (int i = 0; i < 3; i++) {
                attempt(run, ToolCall.of("lookup", "{\"order\": " + (10 + i) + "}"), ran);
            }
            return List.of(o);
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "looping"), 1, Rehearsal.runInvariants(config));
        List<Violation> v = result.violations();
        assertEquals(2, v.size(), v.toString());
        assertEquals(Invariant.BUDGET, v.get(0).invariant());
        assertEquals("the op made 7 tool executions, more than budget.max_tool_calls_per_op (6)",
                v.get(0).message());
        String fp = result.trace().tools().get(0).fingerprint();
        assertEquals("tool 'lookup' ran 4 times with the same arguments (" + fp + "), more than"
                + " budget.max_identical_tool_calls (3): the agent is looping", v.get(1).message());
        assertEquals("4 tool executions", v.get(1).actual());
        assertFalse(result.trace().tools().stream().anyMatch(ToolRecord::replayed));
    }

    @Test
    void aConfigWithoutToolsIsJudgedAsBeforeAndOneWithToolsBySideEffectsToo() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "resolve", "notify");
        assertTrue(Rehearsal.runInvariants(config).contains(Invariant.SIDE_EFFECTS));
        HarnessConfig plain = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 1s}
                scenarios: [{name: s, ops: [resolve]}]
                """, "resolve");
        assertEquals(Rehearsal.RUN_INVARIANTS, Rehearsal.runInvariants(plain));
        assertFalse(Rehearsal.RUN_INVARIANTS.contains(Invariant.SIDE_EFFECTS));
    }

    @Test
    void aToolOutsideAnyScopeBelongsToTheOpOfTheLastCall() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "resolve", "notify");
        AtomicInteger ran = new AtomicInteger();
        seen.clear();
        AgentLoop loop = run -> {
            seen.add(attempt(run, ToolCall.of("lookup", "not json"), ran));
            Outcome o = call(run, "resolve");
            seen.add(attempt(run, ToolCall.of("lookup", "{}"), ran));
            return List.of(o);
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "looping"), 1, Rehearsal.runInvariants(config));
        assertEquals(List.of("(no op)", "resolve"), result.trace().tools().stream().map(ToolRecord::op).toList());
        assertEquals("not json", result.trace().tools().get(0).arguments());
        assertEquals(0, result.trace().tools().get(0).round());
        assertEquals(Duration.ZERO, result.trace().totalWait());
    }
}
