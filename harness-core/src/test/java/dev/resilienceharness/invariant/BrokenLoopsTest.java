package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.brokenloops.DropsWorkOnStopLoop;
import dev.resilienceharness.brokenloops.ForgetfulRestartLoop;
import dev.resilienceharness.brokenloops.HashOrderLoop;
import dev.resilienceharness.brokenloops.IgnoresRetryAfterBoundLoop;
import dev.resilienceharness.brokenloops.RetryStormLoop;
import dev.resilienceharness.brokenloops.UnboundedWaitLoop;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.loop.BuiltinLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each deliberately broken loop is caught by exactly the invariant it breaks, and by no other. */
class BrokenLoopsTest {

    static final String YAML = """
            version: 1
            volatile: []
            policy:
              max_attempts: 3
              base_delay: 10s
              max_delay: 10s
              max_total_wait: 15s
              quota: {with_retry_after: retry_once, max_retry_after: 1s}
              schema: {repair_attempts: 0}
            scenarios:
              - name: storm
                ops: [plan, patch]
                faults: [timeout, timeout, timeout, timeout]
              - name: long-retry-after
                ops: [plan]
                faults: [{quota: {retry_after: "5"}}]
              - name: waits
                ops: [plan]
                faults: [timeout, timeout]
              - name: stop
                ops: [plan, patch, review]
                faults: [none, quota]
              - name: plain
                ops: [plan, patch]
                faults: []
              - name: restart
                ops: [plan, patch, review]
                faults: [none, crash]
            """;

    @TempDir
    Path dir;

    Set<String> invariants(LoopFactory loop, String scenario) throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review");
        Rehearsal rehearsal = Rehearsal.prepare(config, loop);
        Scenario s = config.scenarios().stream().filter(x -> x.name().equals(scenario)).findFirst().orElseThrow();
        ScenarioResult result = rehearsal.check(s, 2, Rehearsal.RUN_INVARIANTS);
        return result.violations().stream().map(v -> v.invariant().id()).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void a_retry_storm_breaks_the_call_budget_and_by_retrying_at_once_the_backoff() throws Exception {
        assertEquals(Set.of("budget", "bounded_wait"), invariants(RetryStormLoop::new, "storm"));
    }

    @Test
    void waiting_out_a_retry_after_beyond_max_retry_after_breaks_the_call_budget() throws Exception {
        assertEquals(Set.of("budget"), invariants(IgnoresRetryAfterBoundLoop::new, "long-retry-after"));
    }

    @Test
    void waiting_without_bound_breaks_bounded_waiting() throws Exception {
        assertEquals(Set.of("bounded_wait"), invariants(UnboundedWaitLoop::new, "waits"));
    }

    @Test
    void returning_nothing_on_a_quota_stop_breaks_partial_work() throws Exception {
        assertEquals(Set.of("partial_work"), invariants(DropsWorkOnStopLoop::new, "stop"));
    }

    @Test
    void outcomes_from_hash_order_or_wall_time_break_determinism() throws Exception {
        assertEquals(Set.of("determinism"), invariants(HashOrderLoop::new, "plain"));
    }

    @Test
    void re_calling_finished_ops_after_a_restart_breaks_partial_work() throws Exception {
        assertEquals(Set.of("partial_work"), invariants(ForgetfulRestartLoop::new, "restart"));
    }

    @Test
    void the_built_in_loop_passes_every_scenario() throws Exception {
        for (String s : List.of("storm", "long-retry-after", "waits", "stop", "plain", "restart")) {
            assertEquals(Set.of(), invariants(BuiltinLoop::new, s), s);
        }
    }
}
