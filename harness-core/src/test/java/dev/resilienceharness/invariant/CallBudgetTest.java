package dev.resilienceharness.invariant;

import static dev.resilienceharness.testing.ScenarioRuns.retryUntilAnswered;
import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.brokenloops.ForgetfulRestartLoop;
import dev.resilienceharness.config.Budget;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CallBudgetTest {

    @TempDir
    Path dir;

    private RunTrace run(String yaml, LoopFactory loop, String scenario) throws Exception {
        HarnessConfig config = TestProject.create(dir, yaml, "plan", "patch", "review");
        return Rehearsal.prepare(config, loop).run(scenario(config, scenario), null);
    }

    /** One op under a top-level policy with a generous wait bound, this scenario's policy changes and faults. */
    private static String yaml(String scenarioPolicy, String faults) {
        return """
                version: 1
                policy: {max_total_wait: 60m}
                scenarios:
                  - name: s
                    ops: [plan]
                    policy: %s
                    faults: %s
                """.formatted(scenarioPolicy, faults);
    }

    /**
     * Every fault hits the op's calls because the loop retries until answered; the bound is docs invariants/budget.md's
     * 1 + min(T, max_attempts-1) + Q + min(S, repair_attempts) + C.
     */
    @ParameterizedTest(name = "{0} under {1}: bound {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "[]                                                  | {}                                        | 1",
            "[timeout]                                           | {max_attempts: 3}                         | 2",
            "[timeout, {server_error: {status: 502}}, timeout, timeout] | {max_attempts: 3}                  | 3",
            "[timeout, timeout, timeout, timeout]                | {max_attempts: 10}                        | 5",
            "[timeout, timeout]                                  | {max_attempts: 1}                         | 1",
            "[{quota: {retry_after: '2'}}]                       | {}                                        | 2",
            "[{quota: {retry_after: '60'}}]                      | {quota: {max_retry_after: 60s}}           | 2",
            "[{quota: {retry_after: '61'}}]                      | {quota: {max_retry_after: 60s}}           | 1",
            "[{quota: {retry_after: '2'}}]                       | {quota: {with_retry_after: stop}}         | 1",
            "[quota]                                             | {}                                        | 1",
            "[{quota: {retry_after: soon}}]                      | {}                                        | 1",
            "[{quota: {retry_after: '1'}}, {quota: {retry_after: '1'}}] | {}                                 | 2",
            "[bad_tool_call, bad_tool_call, bad_tool_call]       | {schema: {repair_attempts: 2}}            | 3",
            "[bad_tool_call, bad_tool_call]                      | {schema: {repair_attempts: 0}}            | 1",
            "[crash]                                             | {}                                        | 2",
            "[crash, timeout, crash]                             | {max_attempts: 3}                         | 4",
            "[{slow_first_token: {elapsed_ms: 9000}}]            | {}                                        | 1",
    })
    void each_fault_that_hits_the_op_adds_what_the_policy_allows(String faults, String policy, int bound)
            throws Exception {
        RunTrace trace = run(yaml(policy, faults), () -> retryUntilAnswered(20), "s");
        assertEquals(Map.of("plan", bound), CallBudget.bounds(trace));
    }

    @Test
    void a_loop_over_the_bound_is_told_each_term_of_it() throws Exception {
        RunTrace trace = run("""
                version: 1
                policy:
                  max_attempts: 3
                  max_total_wait: 60m
                  quota: {with_retry_after: retry_once, max_retry_after: 60s}
                  schema: {repair_attempts: 1}
                scenarios:
                  - name: everything
                    ops: [plan]
                    faults: [timeout, timeout, timeout, {quota: {retry_after: "1"}}, bad_tool_call, bad_tool_call, crash]
                """, () -> retryUntilAnswered(20), "everything");
        assertEquals(8, trace.calls().size());
        List<Violation> violations = new CallBudget(Budget.NONE).check(trace);
        assertEquals(1, violations.size());
        assertEquals("everything [budget] op 'plan': more calls than the policy allows (1 + 2 transient + 1 quota + 1"
                + " repair + 1 restart) (bound 6 calls, actual 8 calls). Retry only what the policy allows: transient"
                + " failures up to max_attempts, one retry after an honourable Retry-After, up to repair_attempts"
                + " repairs", violations.get(0).line());
    }

    @Test
    void a_loop_within_the_bound_passes() throws Exception {
        RunTrace trace = run(yaml("{max_attempts: 3}", "[timeout, timeout]"), () -> retryUntilAnswered(20), "s");
        assertEquals(3, trace.calls().size());
        assertEquals(List.of(), new CallBudget(Budget.NONE).check(trace));
    }

    @Test
    void no_call_may_follow_a_quota_stop() throws Exception {
        LoopFactory keepsGoing = () -> run -> {
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                try {
                    out.add(Outcome.ok(op, run.transport().call(run.request(op)).body(), 1));
                } catch (QuotaExhausted e) {
                    if (out.stream().noneMatch(o -> o.status() == dev.resilienceharness.loop.Status.STOPPED)) {
                        out.add(Outcome.stopped(op, e.retryAfter(), 1));
                    }
                } catch (CallFailure e) {
                    out.add(Outcome.degraded(op, "timeout", 1));
                }
            }
            return out.subList(0, 1);
        };
        RunTrace trace = run("""
                version: 1
                policy: {max_total_wait: 1s}
                scenarios:
                  - name: stop
                    ops: [plan, patch, review]
                    faults: [quota]
                """, keepsGoing, "stop");
        List<Violation> violations = new CallBudget(Budget.NONE).check(trace);
        assertEquals(1, violations.size());
        assertEquals("stop [budget] op 'patch': 2 calls after the quota stop at op 'plan' (bound 0 calls after a stop,"
                + " actual 2 calls). Return the outcomes at once when a quota stops the run", violations.get(0).line());
    }

    @Test
    void the_built_in_loop_makes_no_call_after_a_stop() throws Exception {
        RunTrace trace = run("""
                version: 1
                policy: {max_total_wait: 1s}
                scenarios:
                  - name: stop
                    ops: [plan, patch, review]
                    faults: [none, quota]
                """, LoopFactory.builtin(), "stop");
        assertEquals(2, trace.calls().size());
        assertEquals(List.of(), new CallBudget(Budget.NONE).check(trace));
    }

    @Test
    void max_calls_per_scenario_caps_the_whole_run() throws Exception {
        String yaml = """
                version: 1
                policy: {max_total_wait: 1s}
                budget: {max_calls_per_scenario: %d}
                scenarios:
                  - name: three
                    ops: [plan, patch, review]
                """;
        RunTrace over = run(yaml.formatted(2), LoopFactory.builtin(), "three");
        List<Violation> violations = new CallBudget(new Budget(2)).check(over);
        assertEquals(1, violations.size());
        assertEquals("three [budget]: 3 calls in the scenario; budget.max_calls_per_scenario is 2 (bound 2 calls, actual"
                + " 3 calls). Lower the loop's retries or raise budget.max_calls_per_scenario", violations.get(0).line());
        assertEquals(List.of(), new CallBudget(new Budget(3)).check(over), "exactly at the cap passes");
    }

    @Test
    void re_calls_after_a_restart_are_left_to_partial_work() throws Exception {
        RunTrace trace = run("""
                version: 1
                policy: {max_total_wait: 1s}
                scenarios:
                  - name: restart
                    ops: [plan, patch, review]
                    faults: [none, crash]
                """, ForgetfulRestartLoop::new, "restart");
        assertEquals(List.of("plan", "patch", "plan", "patch", "review"),
                trace.calls().stream().map(c -> c.op()).toList());
        assertEquals(Map.of("plan", 1, "patch", 2, "review", 1), CallBudget.bounds(trace));
        assertEquals(List.of(), new CallBudget(Budget.NONE).check(trace));
        assertEquals(List.of("partial_work"), new PartialWorkSurvival().check(trace).stream()
                .map(v -> v.invariant().id()).toList());
    }

    @Test
    void the_scenario_bound_sums_the_bounds_of_the_ops_called() throws Exception {
        String yaml = """
                version: 1
                policy: {max_total_wait: 60m, max_attempts: 3}
                scenarios:
                  - name: stops-early
                    ops: [plan, patch, review]
                    faults: [timeout, quota]
                  - name: all
                    ops: [plan, patch, review]
                    faults: [timeout, none, {quota: {retry_after: "1"}}]
                """;
        HarnessConfig config = TestProject.create(dir, yaml, "plan", "patch", "review");
        Rehearsal rehearsal = Rehearsal.prepare(config, LoopFactory.builtin());
        RunTrace early = rehearsal.run(scenario(config, "stops-early"), null);
        assertEquals(Map.of("plan", 2), CallBudget.bounds(early));
        assertEquals(2, CallBudget.scenarioBound(early), "ops never called add nothing");
        RunTrace all = rehearsal.run(scenario(config, "all"), null);
        assertEquals(List.of("plan", "patch", "review"), List.copyOf(CallBudget.bounds(all).keySet()));
        assertEquals(2 + 2 + 1, CallBudget.scenarioBound(all));
    }

    /** {@code policy.max_rounds}: a call after an answered call of the op starts its next round. */
    @org.junit.jupiter.api.Nested
    class Rounds {

        private static final dev.resilienceharness.policy.Policy POLICY = dev.resilienceharness.policy.Policy
                .defaults(java.time.Duration.ofMinutes(1));

        private static dev.resilienceharness.trace.CallRecord call(int i, String op,
                dev.resilienceharness.trace.CallRecord.Result result, int incarnation) {
            return new dev.resilienceharness.trace.CallRecord(i, "plan", 0, "none", result, 0, null, false, i * 1000L,
                    null, incarnation);
        }

        /** Calls of op plan from the results given, all in incarnation 0, under max_rounds {@code rounds}. */
        private static RunTrace trace(int rounds, dev.resilienceharness.trace.CallRecord.Result... results) {
            List<dev.resilienceharness.trace.CallRecord> calls = new ArrayList<>();
            for (int i = 0; i < results.length; i++) {
                calls.add(call(i, "plan", results[i], 0));
            }
            return trace(rounds, calls, List.of());
        }

        private static RunTrace trace(int rounds, List<dev.resilienceharness.trace.CallRecord> calls,
                List<RunTrace.Restart> restarts) {
            dev.resilienceharness.config.Scenario s = new dev.resilienceharness.config.Scenario("s", List.of("plan"),
                    List.of(), dev.resilienceharness.config.Expectations.NONE, POLICY.withMaxRounds(rounds), 1);
            return new RunTrace(s, List.of(), calls, List.of(),
                    java.time.Duration.ZERO, restarts, null);
        }

        private static List<String> lines(RunTrace trace) {
            return new CallBudget(Budget.NONE).check(trace).stream().map(Violation::line).toList();
        }

        private static final dev.resilienceharness.trace.CallRecord.Result OK =
                dev.resilienceharness.trace.CallRecord.Result.OK;
        private static final dev.resilienceharness.trace.CallRecord.Result TRANSIENT =
                dev.resilienceharness.trace.CallRecord.Result.TRANSIENT;
        private static final dev.resilienceharness.trace.CallRecord.Result SCHEMA =
                dev.resilienceharness.trace.CallRecord.Result.SCHEMA;
        private static final dev.resilienceharness.trace.CallRecord.Result CRASH =
                dev.resilienceharness.trace.CallRecord.Result.CRASH;

        @Test
        void each_round_gets_one_call_and_the_op_the_sum() {
            RunTrace trace = trace(3, OK, OK, OK);
            assertEquals(Map.of("plan", 3), CallBudget.bounds(trace));
            assertEquals(3, CallBudget.scenarioBound(trace));
            assertEquals(List.of(), lines(trace));
        }

        @Test
        void fewer_rounds_than_allowed_are_bound_by_the_rounds_taken() {
            RunTrace trace = trace(5, OK, OK);
            assertEquals(Map.of("plan", 2), CallBudget.bounds(trace));
            assertEquals(List.of(), lines(trace));
        }

        @Test
        void with_max_rounds_1_every_call_of_the_op_is_one_round_as_before() {
            RunTrace trace = trace(1, OK, OK, OK);
            assertEquals(Map.of("plan", 1), CallBudget.bounds(trace));
            assertEquals(List.of("s [budget] op 'plan': more calls than the policy allows (1 + 0 transient + 0 quota"
                    + " + 0 repair + 0 restart) (bound 1 call, actual 3 calls). Retry only what the policy allows:"
                    + " transient failures up to max_attempts, one retry after an honourable Retry-After, up to"
                    + " repair_attempts repairs"), lines(trace));
            assertEquals(Map.of("plan", 3), CallBudget.bounds(trace(1, TRANSIENT, TRANSIENT, OK, OK)));
        }

        @Test
        void a_round_beyond_max_rounds_is_named_with_what_to_do() {
            RunTrace trace = trace(3, OK, OK, OK, OK);
            assertEquals(Map.of("plan", 3), CallBudget.bounds(trace));
            assertEquals(List.of("s [budget] op 'plan': round 4 of at most 3 (policy.max_rounds) (bound 3 rounds,"
                    + " actual 4 rounds). Raise policy.max_rounds if the turn really needs more model rounds; else stop"
                    + " the loop from asking the model again (cap its tool calls, or answer once the tools have run)"),
                    lines(trace));
        }

        @Test
        void faults_in_round_2_give_round_2_its_retries_and_repairs() {
            // round 1 answered; round 2: two timeouts, a broken tool call and its repair; round 3 answered
            RunTrace trace = trace(3, OK, TRANSIENT, TRANSIENT, SCHEMA, OK, OK);
            assertEquals(Map.of("plan", 1 + (1 + 2 + 1) + 1), CallBudget.bounds(trace));
            assertEquals(List.of(), lines(trace));
        }

        @Test
        void a_round_over_its_own_bound_is_named() {
            RunTrace trace = trace(3, OK, TRANSIENT, TRANSIENT, TRANSIENT, OK);
            assertEquals(List.of("s [budget] op 'plan': round 2: more calls than the policy allows (1 + 2 transient"
                    + " + 0 quota + 0 repair + 0 restart) (bound 3 calls, actual 4 calls). Retry only what the policy"
                    + " allows: transient failures up to max_attempts, one retry after an honourable Retry-After, up"
                    + " to repair_attempts repairs"), lines(trace));
        }

        @Test
        void retries_a_round_did_not_need_do_not_carry_over_to_the_next() {
            // round 1 had a timeout and used its retry; round 2 retries a schema failure twice with one repair allowed
            RunTrace trace = trace(2, TRANSIENT, OK, SCHEMA, SCHEMA, OK);
            assertEquals(Map.of("plan", 2 + 2), CallBudget.bounds(trace));
            assertEquals(List.of("s [budget] op 'plan': round 2: more calls than the policy allows (1 + 0 transient"
                    + " + 0 quota + 1 repair + 0 restart) (bound 2 calls, actual 3 calls). Retry only what the policy"
                    + " allows: transient failures up to max_attempts, one retry after an honourable Retry-After, up"
                    + " to repair_attempts repairs"), lines(trace));
        }

        @Test
        void a_crash_in_round_2_and_a_resume_that_runs_the_rounds_again_are_not_counted_twice() {
            // incarnation 0: round 1 answered, round 2 crashes; incarnation 1 runs rounds 1, 2 and 3
            List<dev.resilienceharness.trace.CallRecord> calls = List.of(call(0, "plan", OK, 0),
                    call(1, "plan", CRASH, 0), call(2, "plan", OK, 1), call(3, "plan", OK, 1), call(4, "plan", OK, 1));
            List<RunTrace.Restart> restart = List.of(new RunTrace.Restart(1, List.of(), false));
            RunTrace three = trace(3, calls, restart);
            assertEquals(Map.of("plan", 1 + 2 + 1), CallBudget.bounds(three));
            assertEquals(List.of(), lines(three));

            RunTrace two = trace(2, calls, restart);
            assertEquals(List.of("s [budget] op 'plan': round 3 of at most 2 (policy.max_rounds) (bound 2 rounds,"
                    + " actual 3 rounds). Raise policy.max_rounds if the turn really needs more model rounds; else stop"
                    + " the loop from asking the model again (cap its tool calls, or answer once the tools have run)"),
                    lines(two));
        }

        /** Makes op plan a turn of {@code rounds} rounds, each retried until answered; a restart runs them all again. */
        private static LoopFactory turnOf(int rounds) {
            return () -> run -> {
                for (int round = 1; round <= rounds; round++) {
                    while (true) {
                        try {
                            run.transport().call(run.request("plan"));
                            break;
                        } catch (CallFailure e) {
                            // the round's retry
                        }
                    }
                }
                return List.of(Outcome.ok("plan", dev.resilienceharness.json.Json.readTree("{}"), 1));
            };
        }

        @Test
        void a_rehearsal_with_a_crash_in_round_2_runs_the_turn_again_and_stays_within_the_budget() throws Exception {
            RunTrace trace = run("""
                    version: 1
                    policy: {max_total_wait: 60m, max_rounds: 3}
                    scenarios:
                      - name: s
                        ops: [plan]
                        faults: [none, timeout, crash]
                    """, turnOf(3), "s");
            // round 1; round 2 times out, then crashes; after the restart rounds 1, 2 and 3 again
            assertEquals(6, trace.calls().size());
            assertEquals(1, trace.restarts().size());
            assertEquals(Map.of("plan", 1 + (1 + 1 + 1) + 1), CallBudget.bounds(trace));
            assertEquals(List.of(), new CallBudget(Budget.NONE).check(trace));
        }

        @Test
        void a_resume_that_spends_the_crashed_round_again_is_told_to_checkpoint() {
            // round 2 crashes after two timeouts; after the restart round 2 times out three times more
            List<dev.resilienceharness.trace.CallRecord> calls = List.of(call(0, "plan", OK, 0),
                    call(1, "plan", TRANSIENT, 0), call(2, "plan", TRANSIENT, 0), call(3, "plan", CRASH, 0),
                    call(4, "plan", OK, 1), call(5, "plan", TRANSIENT, 1), call(6, "plan", TRANSIENT, 1),
                    call(7, "plan", OK, 1));
            RunTrace trace = trace(2, calls, List.of(new RunTrace.Restart(3, List.of(), false)));
            assertEquals(List.of("s [budget] op 'plan': round 2: more calls than the policy allows (1 + 2 transient"
                    + " + 0 quota + 0 repair + 1 restart) (bound 4 calls, actual 6 calls). " + Messages
                    .HINT_BUDGET_AFTER_RESTART), lines(trace));
        }
    }
}
