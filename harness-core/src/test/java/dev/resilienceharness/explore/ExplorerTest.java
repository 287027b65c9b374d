package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.brokenloops.ForgetfulRestartLoop;
import dev.resilienceharness.brokenloops.HashOrderLoop;
import dev.resilienceharness.brokenloops.UnboundedWaitLoop;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Broken loops whose minimal counterexamples are known are found exactly; a sound loop yields none. */
class ExplorerTest {

    static final String YAML = """
            version: 1
            volatile: []
            policy:
              max_attempts: 3
              base_delay: 10ms
              max_delay: 5s
              max_total_wait: 30s
              quota: {with_retry_after: retry_once, max_retry_after: 60s}
              schema: {repair_attempts: 1}
              slow_first_token: {threshold: 2s}
            scenarios:
              - name: one
                ops: [plan]
              - name: two
                ops: [plan, patch]
                faults: [timeout]
                expect: {status: [ok, ok], attempts: [2, 1]}
              - name: waits
                ops: [plan]
                policy: {max_attempts: 10, base_delay: 1s, max_delay: 1s, max_total_wait: 10s}
              - name: workshop
                ops: [plan, patch]
                policy: {max_attempts: 1, quota: {with_retry_after: stop}, schema: {repair_attempts: 0}}
                expect: {status: [ok, ok]}
            """;

    static final Fault TIMEOUT = TimeoutFault.INSTANCE;

    @TempDir
    Path dir;

    Rehearsal rehearsal(LoopFactory loop) throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        return Rehearsal.prepare(config, loop);
    }

    static Scenario scenario(Rehearsal rehearsal, String name) {
        return rehearsal.config().scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    ExplorationResult explore(LoopFactory loop, String scenario, Explorer.Settings settings) throws Exception {
        Rehearsal rehearsal = rehearsal(loop);
        return new Explorer(rehearsal).explore(scenario(rehearsal, scenario), settings);
    }

    static Counterexample only(ExplorationResult result) {
        assertEquals(1, result.counterexamples().size(), result.counterexamples().toString());
        return result.counterexamples().get(0);
    }

    @Test
    void retrying_a_quota_without_retry_after_is_found_as_the_plan_quota() throws Exception {
        ExplorationResult result = explore(RetriesQuotaLoop::new, "two", Explorer.Settings.DEFAULTS);
        Counterexample c = only(result);
        assertEquals(Invariant.BUDGET, c.invariant());
        assertEquals(List.of(new QuotaFault(null)), c.plan());
        assertEquals("explore-two-budget-1", c.name());
        assertEquals(PlanSpace.Phase.SINGLES, c.foundIn());
        Violation v = c.violations().get(0);
        assertEquals(List.of("explore-two-budget-1", "plan", "2 calls"), List.of(v.subject(), v.op(), v.actual()));
        assertEquals(1, c.violations().size());
        assertEquals(10_000, result.plans());
        assertEquals(ExplorationResult.Ended.PLAN_BUDGET, result.ended());
    }

    @Test
    void unbounded_waits_are_found_as_exactly_enough_timeouts_to_cross_max_total_wait() throws Exception {
        Rehearsal rehearsal = rehearsal(UnboundedWaitLoop::new);
        Scenario waits = scenario(rehearsal, "waits");
        Counterexample c = only(new Explorer(rehearsal).explore(waits, Explorer.Settings.DEFAULTS));
        // Waits of 1, 2 and 4 s stay within 10 s; the fourth timeout's 8 s wait crosses it.
        assertEquals(Invariant.BOUNDED_WAIT, c.invariant());
        assertEquals(Collections.nCopies(4, TIMEOUT), c.plan());
        assertEquals(PlanSpace.Phase.RANDOM, c.foundIn());
        assertTrue(rehearsal.check(waits.withFaults(Collections.nCopies(3, TIMEOUT)), 2, Explorer.INVARIANTS)
                .violations().isEmpty());
        Violation v = c.violations().get(0);
        assertEquals(List.of("explore-waits-bounded_wait-1", "plan", "10000 ms", "15000 ms"),
                List.of(v.subject(), v.op(), v.bound(), v.actual()));
    }

    @Test
    void a_loop_without_a_journal_is_found_as_one_crash_at_the_second_call() throws Exception {
        Counterexample c = only(explore(ForgetfulRestartLoop::new, "two", Explorer.Settings.DEFAULTS));
        assertEquals(Invariant.PARTIAL_WORK, c.invariant());
        assertEquals(List.of(NoFault.INSTANCE, CrashFault.INSTANCE), c.plan());
    }

    @Test
    void a_loop_that_breaks_without_any_fault_is_found_with_the_empty_plan() throws Exception {
        Counterexample c = only(explore(HashOrderLoop::new, "one", Explorer.Settings.DEFAULTS.withMaxPlans(200)));
        assertEquals(Invariant.DETERMINISM, c.invariant());
        assertEquals(List.of(), c.plan());
        assertEquals(PlanSpace.Phase.EMPTY, c.foundIn());
        assertEquals(1, c.foundAt());
    }

    @Test
    void the_built_in_loop_under_the_workshop_policy_has_no_counterexample_and_expect_lists_are_ignored()
            throws Exception {
        ExplorationResult result = explore(LoopFactory.builtin(), "workshop", Explorer.Settings.DEFAULTS
                .withMaxPlans(5_000));
        assertEquals(List.of(), result.counterexamples());
        assertEquals(5_000, result.plans());
    }

    /**
     * The built-in loop under the corpora's policy, retries, repairs, Retry-After and crashes included: after a
     * restart the op in flight carries on from its journal checkpoint, so no plan breaks the call budget.
     */
    @Test
    void the_built_in_loop_under_a_sound_retrying_policy_has_no_counterexample() throws Exception {
        ExplorationResult result = explore(LoopFactory.builtin(), "two", Explorer.Settings.DEFAULTS);
        assertEquals(List.of(), result.counterexamples());
        assertEquals(Explorer.Settings.DEFAULTS.maxPlans(), result.plans());
    }

    @Test
    void the_same_seed_gives_the_same_result() throws Exception {
        Explorer.Settings settings = Explorer.Settings.DEFAULTS.withSeed(7);
        assertEquals(explore(UnboundedWaitLoop::new, "waits", settings),
                explore(UnboundedWaitLoop::new, "waits", settings));
    }

    @Test
    void another_seed_changes_only_what_the_random_phase_finds() throws Exception {
        Explorer.Settings settings = Explorer.Settings.DEFAULTS.withMaxPlans(12_000);
        ExplorationResult one = explore(UnboundedWaitLoop::new, "waits", settings.withSeed(1));
        ExplorationResult two = explore(UnboundedWaitLoop::new, "waits", settings.withSeed(2));
        assertEquals(systematic(one), systematic(two));
        // Here both seeds shrink to the same minimal plan, found at different random plans.
        assertEquals(one.counterexamples().get(0).plan(), two.counterexamples().get(0).plan());
        assertTrue(one.counterexamples().get(0).foundAt() != two.counterexamples().get(0).foundAt());
    }

    static List<Counterexample> systematic(ExplorationResult r) {
        return r.counterexamples().stream().filter(c -> c.foundIn() != PlanSpace.Phase.RANDOM).toList();
    }

    @Test
    void the_search_stops_after_as_many_counterexamples_as_asked_for() throws Exception {
        ExplorationResult result = explore(RetriesQuotaLoop::new, "two", Explorer.Settings.DEFAULTS
                .withMaxCounterexamples(1));
        assertEquals(ExplorationResult.Ended.COUNTEREXAMPLES, result.ended());
        assertEquals(result.counterexamples().get(0).foundAt(), result.plans());
    }

    @Test
    void the_time_limit_ends_the_search() throws Exception {
        Rehearsal rehearsal = rehearsal(LoopFactory.builtin());
        AtomicLong now = new AtomicLong();
        Explorer explorer = new Explorer(rehearsal, () -> now.addAndGet(1_000_000));
        ExplorationResult result = explorer.explore(scenario(rehearsal, "workshop"), Explorer.Settings.DEFAULTS
                .withTimeLimit(Duration.ofMillis(50)));
        assertEquals(ExplorationResult.Ended.TIME_LIMIT, result.ended());
        assertEquals(49, result.plans());
    }

    @Test
    void scenarios_with_the_same_ops_and_policy_are_explored_once() throws Exception {
        Rehearsal rehearsal = rehearsal(LoopFactory.builtin());
        Scenario one = scenario(rehearsal, "one");
        Scenario two = scenario(rehearsal, "two");
        Scenario twoAgain = new Scenario("two-again", two.ops(), List.of(), two.expect(), two.policy(), 0);
        Scenario twoOtherPolicy = new Scenario("two-other", two.ops(), List.of(), two.expect(),
                two.policy().withMaxAttempts(5), 0);
        assertEquals(List.of(one, two, twoOtherPolicy),
                Explorer.distinct(List.of(one, two, twoAgain, twoOtherPolicy)));
    }

    @Test
    void a_zero_plan_budget_runs_nothing() throws Exception {
        ExplorationResult result = explore(LoopFactory.builtin(), "one", Explorer.Settings.DEFAULTS.withMaxPlans(0));
        assertEquals(0, result.plans());
        assertEquals(ExplorationResult.Ended.PLAN_BUDGET, result.ended());
    }

    /** Retries a broken stream at once, without the backoff it gives a timeout. */
    static final class RetriesBrokenStreamsAtOnce implements dev.resilienceharness.loop.AgentLoop {
        @Override
        public List<dev.resilienceharness.loop.Outcome> run(dev.resilienceharness.loop.LoopRun run) {
            List<dev.resilienceharness.loop.Outcome> out = new java.util.ArrayList<>();
            for (String op : run.ops()) {
                int attempts = 0;
                int transients = 0;
                while (true) {
                    attempts++;
                    try {
                        out.add(dev.resilienceharness.loop.Outcome.ok(op, run.transport().call(run.request(op)).body(),
                                attempts));
                        break;
                    } catch (dev.resilienceharness.transport.TransientError e) {
                        transients++;
                        if (transients >= run.policy().maxAttempts()) {
                            out.add(dev.resilienceharness.loop.Outcome.degraded(op, "timeout", attempts));
                            break;
                        }
                        if (e.streamFault() == null) {
                            run.sleeper().sleep(run.policy().backoff(transients));
                        }
                    } catch (dev.resilienceharness.transport.CallFailure e) {
                        out.add(dev.resilienceharness.loop.Outcome.degraded(op, "schema", attempts));
                        break;
                    }
                }
            }
            return out;
        }
    }

    @Test
    void the_stream_faults_are_explored_for_a_streamed_op_and_found_minimal() throws Exception {
        Path project = java.nio.file.Files.createDirectories(dir.resolve("streamed"));
        HarnessConfig config = TestProject.create(project, """
                version: 1
                volatile: []
                policy: {max_attempts: 3, base_delay: 10ms, max_total_wait: 30s, schema: {repair_attempts: 0}}
                requests:
                  plan: {op: plan, stream: true}
                scenarios:
                  - {name: streamed, ops: [plan]}
                """);
        dev.resilienceharness.cassette.CassetteStore.replaying(config.cassettes(),
                dev.resilienceharness.json.VolatilePaths.of(List.of())).write(config.request("plan"),
                tools.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("done", "plan"), null);
        Rehearsal rehearsal = Rehearsal.prepare(config, RetriesBrokenStreamsAtOnce::new);
        assertTrue(rehearsal.streams("plan"));
        assertTrue(PlanSpace.of(scenario(rehearsal, "streamed"), true).vocabulary().containsAll(List.of(
                new dev.resilienceharness.fault.StreamCutFault(1), new dev.resilienceharness.fault.StreamStallFault(1,
                        60_001), new dev.resilienceharness.fault.MalformedEventFault(1),
                new dev.resilienceharness.fault.StreamErrorFault(1),
                dev.resilienceharness.fault.TruncatedToolCallFault.INSTANCE)));
        ExplorationResult result = new Explorer(rehearsal).explore(scenario(rehearsal, "streamed"),
                Explorer.Settings.DEFAULTS.withMaxPlans(2_000));
        Counterexample c = only(result);
        assertEquals(List.of(new dev.resilienceharness.fault.StreamCutFault(1)), c.plan(),
                "the at-once retry after a cut, shrunk to one cut");
        assertFalse(rehearsal(dev.resilienceharness.loop.BuiltinLoop::new).streams("plan"), "{op: plan} does not stream");
    }

    @Test
    void shards_of_the_plan_space_run_every_plan_once_between_them() throws Exception {
        Explorer.Settings settings = Explorer.Settings.DEFAULTS.withMaxPlans(300);
        Rehearsal rehearsal = rehearsal(RetriesQuotaLoop::new);
        Scenario two = scenario(rehearsal, "two");
        ExplorationResult whole = new Explorer(rehearsal).explore(two, settings);
        long plans = 0;
        java.util.Set<List<Fault>> found = new java.util.HashSet<>();
        for (int k = 1; k <= 3; k++) {
            dev.resilienceharness.shard.Shard shard = new dev.resilienceharness.shard.Shard(k, 3);
            ExplorationResult part = new Explorer(rehearsal).explore(two, settings, shard::ownsPlan);
            assertEquals(100, part.plans(), "a third of the 300 plans");
            plans += part.plans();
            part.counterexamples().forEach(c -> found.add(c.plan()));
        }
        assertEquals(whole.plans(), plans);
        assertEquals(whole.counterexamples().stream().map(Counterexample::plan).collect(
                java.util.stream.Collectors.toSet()), found, "the shards find the smallest plans the whole search finds");
    }
}
