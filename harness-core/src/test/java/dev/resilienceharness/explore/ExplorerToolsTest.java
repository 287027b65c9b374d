package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.tool.ToolFault;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tool faults in the explored plans: a blind retry of a side-effecting tool is found, a keyed one is not. */
class ExplorerToolsTest {

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
            tools:
              refund: {side_effects: true, idempotency_key: passed, timeout: 5s}
            scenarios:
              - name: one
                ops: [plan]
              - name: two
                ops: [plan, patch]
            """;

    static final Explorer.Settings SETTINGS = Explorer.Settings.DEFAULTS.withMaxPlans(2_000);

    @TempDir
    Path dir;

    Rehearsal rehearsal(LoopFactory loop) throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        return Rehearsal.prepare(config, loop);
    }

    @Test
    void a_loop_that_retries_a_refund_blindly_after_a_timeout_is_found_as_timeout_after_commit() throws Exception {
        Rehearsal rehearsal = rehearsal(RefundLoop.blind());
        ExplorationResult result = new Explorer(rehearsal).explore(ExplorerTest.scenario(rehearsal, "one"), SETTINGS);
        Counterexample c = ExplorerTest.only(result);
        assertEquals(Invariant.SIDE_EFFECTS, c.invariant());
        assertEquals("explore-one-side_effects-1", c.name());
        assertEquals(List.of(), c.plan());
        assertEquals(Map.of("refund", List.of(ToolFault.of(ToolFault.Kind.TIMEOUT_AFTER_COMMIT))), c.toolFaults());
        assertEquals(PlanSpace.Phase.TOOL_SINGLES, c.foundIn());
        assertEquals(1, c.violations().size());
        assertEquals("plan", c.violations().get(0).op());
        assertTrue(c.yaml().contains("    tool_faults: {refund: [timeout_after_commit]}\n"), c.yaml());
    }

    @Test
    void a_counterexample_found_late_in_the_tool_list_shrinks_to_the_first_execution_it_needs() throws Exception {
        Rehearsal rehearsal = rehearsal(RefundLoop.blind());
        ExplorationResult result = new Explorer(rehearsal).explore(ExplorerTest.scenario(rehearsal, "two"), SETTINGS);
        // The refunds of plan and patch both break side_effects; patch's plan, [none, timeout_after_commit], is a
        // new failure (another op) whose shrunk plan is plan's again, so it is one counterexample.
        Counterexample c = ExplorerTest.only(result);
        assertEquals(Map.of("refund", List.of(ToolFault.of(ToolFault.Kind.TIMEOUT_AFTER_COMMIT))), c.toolFaults());
        assertEquals(List.of(), c.plan());
    }

    @Test
    void a_loop_that_retries_with_the_same_idempotency_key_has_no_counterexample() throws Exception {
        Rehearsal rehearsal = rehearsal(RefundLoop.careful());
        Scenario one = ExplorerTest.scenario(rehearsal, "one");
        ExplorationResult result = new Explorer(rehearsal).explore(one, SETTINGS);
        assertEquals(List.of(), result.counterexamples());
        assertEquals(SETTINGS.maxPlans(), result.plans());
        // Every tool single and every tool pair was among the plans run.
        PlanSpace space = PlanSpace.of(one, false, List.of(PlanSpace.Tool.of(rehearsal.config().tool("refund"), 1)));
        var plans = space.plans(SETTINGS.seed());
        int singles = 0;
        int pairs = 0;
        for (int i = 0; i < SETTINGS.maxPlans(); i++) {
            PlanSpace.Phase phase = plans.next().phase();
            singles += phase == PlanSpace.Phase.TOOL_SINGLES ? 1 : 0;
            pairs += phase == PlanSpace.Phase.TOOL_PAIRS ? 1 : 0;
        }
        assertEquals(4, singles);
        assertEquals(4 * space.horizon() * space.vocabulary().size(), pairs);
    }

    @Test
    void the_counterexample_reads_back_through_the_config_loader_and_breaks_side_effects_again() throws Exception {
        Rehearsal rehearsal = rehearsal(RefundLoop.blind());
        Counterexample c = ExplorerTest.only(new Explorer(rehearsal).explore(ExplorerTest.scenario(rehearsal, "one"),
                SETTINGS));
        byte[] pasted = (YAML + c.yaml()).getBytes(StandardCharsets.UTF_8);
        HarnessConfig reloaded = ConfigLoader.load(dir.resolve("resilience.yaml"), pasted);
        Rehearsal again = Rehearsal.prepare(reloaded, RefundLoop.blind());
        Scenario loaded = ExplorerTest.scenario(again, c.name());
        assertEquals(c.plan(), loaded.faults());
        assertEquals(c.toolFaults(), loaded.toolFaults());
        List<Violation> violations = again.check(loaded, 2, Explorer.INVARIANTS).violations().stream()
                .filter(v -> v.invariant() == Invariant.SIDE_EFFECTS).toList();
        assertEquals(c.violations(), violations, c.yaml());
    }

    @Test
    void a_project_without_tools_explores_the_plans_it_did_before() throws Exception {
        HarnessConfig config = TestProject.create(dir, ExplorerTest.YAML, "plan", "patch");
        Rehearsal rehearsal = Rehearsal.prepare(config, RefundLoop.blind());
        ExplorationResult result = new Explorer(rehearsal).explore(ExplorerTest.scenario(rehearsal, "one"),
                SETTINGS.withMaxPlans(300));
        // refund is not declared there: no tool fault is planned, and an undeclared tool has no side_effects.
        assertEquals(List.of(), result.counterexamples());
    }
}
