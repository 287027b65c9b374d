package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
    void no_exploration_is_none_and_a_damaged_one_an_error() throws Exception {
        Path file = dir.resolve("explore.json");
        assertNull(ExploreReport.read(file));
        Files.writeString(file, "{\"summary\": ");
        assertThrows(IOException.class, () -> ExploreReport.read(file));
    }
}
