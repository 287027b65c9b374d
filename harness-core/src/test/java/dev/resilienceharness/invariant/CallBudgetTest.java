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
}
