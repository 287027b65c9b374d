package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.policy.Policy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class ExploreReportTest {

    @TempDir
    Path dir;

    @Test
    void the_report_sums_up_then_lists_each_scenario_and_its_counterexamples() throws Exception {
        Scenario two = new Scenario("two", List.of("plan", "patch"), List.of(), Expectations.NONE,
                Policy.defaults(Duration.ofSeconds(30)), 3);
        Violation v = new Violation(Invariant.BUDGET, "explore-two-budget-1", "plan", "1 calls", "2 calls",
                "2 calls for the op", null);
        Counterexample c = new Counterexample("explore-two-budget-1", Invariant.BUDGET, List.of(NoFault.INSTANCE,
                new QuotaFault("2"), new SlowFirstTokenFault(2001)), List.of(v), "  - name: explore-two-budget-1\n",
                PlanSpace.Phase.PAIRS, 140);
        List<ExplorationResult> results = List.of(
                new ExplorationResult(two, 10_000, List.of(c), ExplorationResult.Ended.PLAN_BUDGET),
                new ExplorationResult(two.withFaults(List.of()), 12, List.of(), ExplorationResult.Ended.TIME_LIMIT));
        assertEquals("{\"summary\":{\"scenarios\":2,\"plans\":10012,\"counterexamples\":1,\"seed\":5},"
                + "\"scenarios\":[{\"name\":\"two\",\"plans\":10000,\"ended\":\"plan_budget\",\"counterexamples\":["
                + "{\"name\":\"explore-two-budget-1\",\"invariant\":\"budget\",\"faults\":[\"none\","
                + "{\"quota\":{\"retry_after\":\"2\"}},{\"slow_first_token\":{\"elapsed_ms\":2001}}],"
                + "\"found_in\":\"pairs\",\"found_at\":140,\"violations\":[\"explore-two-budget-1 [budget] op 'plan':"
                + " 2 calls for the op (bound 1 calls, actual 2 calls)\"],\"yaml\":\"  - name: explore-two-budget-1\\n\"}"
                + "]},{\"name\":\"two\",\"plans\":12,\"ended\":\"time_limit\",\"counterexamples\":[]}]}",
                Json.compact(ExploreReport.json(results, 5)));
        // What the report goal shows of it: the plans, and each counterexample's violations above its yaml.
        Path file = dir.resolve("explore.json");
        Files.writeString(file, Json.prettyPrint(ExploreReport.json(results, 5)));
        assertEquals(new ExploreReport.Saved(10_012, List.of("# explore-two-budget-1 [budget] op 'plan': 2 calls"
                + " for the op (bound 1 calls, actual 2 calls)\n  - name: explore-two-budget-1\n")),
                ExploreReport.read(file));
    }

    @Test
    void the_limit_values_found_are_listed_with_their_invariant_and_reason_and_the_report_goal_shows_them()
            throws Exception {
        Violation early = new Violation(Invariant.BUDGET, "storm", "test", "at least 60000 ms", "0 ms",
                "retried 0 ms after a rate-limit 429", "Wait the delay");
        LimitSearch.Finding rpm = new LimitSearch.Finding("requests_per_minute", 2, 1, List.of(early),
                "  - name: explore-storm-requests-per-minute-2\n", "storm");
        ObjectNode root = ExploreReport.json(List.of(), 1, List.of(rpm));
        assertEquals("{\"scenarios\":0,\"plans\":0,\"counterexamples\":0,\"seed\":1,\"limits\":1}",
                Json.compact(root.get("summary")));
        assertEquals("[{\"scenario\":\"storm\",\"name\":\"explore-storm-requests-per-minute-2\","
                + "\"limit\":\"requests_per_minute\",\"value\":2,\"tried\":1,\"invariant\":\"budget\","
                + "\"reason\":\"retried 0 ms after a rate-limit 429\",\"violations\":[\"storm [budget] op 'test':"
                + " retried 0 ms after a rate-limit 429 (bound at least 60000 ms, actual 0 ms). Wait the delay\"],"
                + "\"yaml\":\"  - name: explore-storm-requests-per-minute-2\\n\"}]", Json.compact(root.get("limits")));
        Path file = dir.resolve("explore.json");
        Files.writeString(file, Json.prettyPrint(root));
        assertEquals(new ExploreReport.Saved(0, List.of("# " + early.line()
                + "\n  - name: explore-storm-requests-per-minute-2\n")), ExploreReport.read(file));
        // Without limits searched the list is there, empty.
        assertEquals("[]", Json.compact(ExploreReport.json(List.of(), 1, List.of()).get("limits")));
    }

    @Test
    void no_exploration_is_none_and_a_damaged_one_an_error() throws Exception {
        Path file = dir.resolve("explore.json");
        assertNull(ExploreReport.read(file));
        Files.writeString(file, "{\"summary\": ");
        assertThrows(IOException.class, () -> ExploreReport.read(file));
    }

    @Test
    void a_counterexample_with_tool_faults_lists_them_after_its_faults() {
        Scenario one = new Scenario("one", List.of("plan"), List.of(), Expectations.NONE,
                Policy.defaults(Duration.ofSeconds(30)), 3);
        Counterexample c = new Counterexample("explore-one-side_effects-1", Invariant.SIDE_EFFECTS, List.of(),
                List.of(), "  - name: explore-one-side_effects-1\n", PlanSpace.Phase.TOOL_SINGLES, 70,
                java.util.Map.of("refund", List.of(dev.resilienceharness.tool.ToolFault.NONE,
                        dev.resilienceharness.tool.ToolFault.slow(Duration.ofSeconds(5)),
                        dev.resilienceharness.tool.ToolFault.of(
                                dev.resilienceharness.tool.ToolFault.Kind.TIMEOUT_AFTER_COMMIT))));
        String json = Json.compact(ExploreReport.json(List.of(new ExplorationResult(one, 100, List.of(c),
                ExplorationResult.Ended.PLAN_BUDGET)), 1));
        assertTrue(json.contains("\"invariant\":\"side_effects\",\"faults\":[],\"tool_faults\":{\"refund\":[\"none\","
                + "{\"slow\":\"5s\"},\"timeout_after_commit\"]},\"found_in\":\"tool_singles\",\"found_at\":70,"), json);
    }

    @Test
    void mcp_tool_faults_keep_their_settings() {
        Scenario one = new Scenario("one", List.of("plan"), List.of(), Expectations.NONE,
                Policy.defaults(Duration.ofSeconds(30)), 3);
        Counterexample c = new Counterexample("explore-one-side_effects-1", Invariant.SIDE_EFFECTS, List.of(),
                List.of(), "  - name: explore-one-side_effects-1\n", PlanSpace.Phase.TOOL_SINGLES, 70,
                java.util.Map.of("refund", List.of(dev.resilienceharness.tool.ToolFault.protocolError(-32602),
                        dev.resilienceharness.tool.ToolFault.protocolError(-32603),
                        dev.resilienceharness.tool.ToolFault.rateLimited(Duration.ofSeconds(2)),
                        dev.resilienceharness.tool.ToolFault.slow(Duration.ofSeconds(5), 2),
                        dev.resilienceharness.tool.ToolFault.of(dev.resilienceharness.tool.ToolFault.Kind.HANG))));
        String json = Json.compact(ExploreReport.json(List.of(new ExplorationResult(one, 100, List.of(c),
                ExplorationResult.Ended.PLAN_BUDGET)), 1));
        assertTrue(json.contains("\"tool_faults\":{\"refund\":[{\"protocol_error\":-32602},\"protocol_error\","
                + "{\"rate_limited\":\"2s\"},{\"slow\":\"5s\",\"progress\":2},\"hang\"]}"), json);
    }
}
