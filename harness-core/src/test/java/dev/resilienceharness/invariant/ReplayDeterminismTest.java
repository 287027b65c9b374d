package dev.resilienceharness.invariant;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.json.CanonicalJson;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** Each op's recorded response carries a volatile {@code id}, which every run replaces with a fresh random value. */
class ReplayDeterminismTest {

    private static final VolatilePaths VOLATILE = VolatilePaths.of(List.of("response.id"));

    @TempDir
    Path dir;

    private HarnessConfig config;

    @BeforeEach
    void project() throws Exception {
        config = TestProject.create(dir, """
                version: 1
                volatile: [response.id]
                policy: {max_total_wait: 1s}
                scenarios:
                  - name: s
                    ops: [plan, patch]
                """);
        // Recorded as a provider sends it: the volatile id is still in the response, so runs can randomise it.
        CassetteStore raw = CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of()));
        for (String op : List.of("plan", "patch")) {
            raw.write(config.request(op), (ObjectNode) Json.readTree("{\"id\": \"chatcmpl-" + op + "\", \"done\": \""
                    + op + "\"}"), null);
        }
    }

    private List<RunTrace> runs(LoopFactory loop, int n) throws Exception {
        Rehearsal rehearsal = Rehearsal.prepare(config, loop);
        Scenario s = scenario(config, "s");
        List<RunTrace> traces = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            traces.add(rehearsal.run(s, new SplittableRandom(r)));
        }
        return traces;
    }

    /** Turns each response's volatile id into the outcome's reason: an outcome that depends on a drifting field. */
    private static final LoopFactory READS_THE_ID = () -> run -> {
        List<Outcome> out = new ArrayList<>();
        for (String op : run.ops()) {
            try {
                out.add(Outcome.degraded(op, run.transport().call(run.request(op)).body().get("id").asString(), 1));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    };

    @Test
    void identical_runs_pass() throws Exception {
        LoopFactory fixed = () -> run -> List.of(Outcome.degraded("plan", "timeout", 3), Outcome.ok("patch", null, 1));
        assertEquals(List.of(), new ReplayDeterminism(VOLATILE).check(runs(fixed, 3)));
    }

    @Test
    void volatile_response_paths_are_ignored_in_outcome_values() throws Exception {
        List<RunTrace> traces = runs(LoopFactory.builtin(), 2);
        assertNotEquals(traces.get(0).outcomes().get(0).value(), traces.get(1).outcomes().get(0).value(),
                "each run saw a different id");
        assertEquals(List.of(), new ReplayDeterminism(VOLATILE).check(traces));
    }

    @Test
    void comparable_strips_volatile_paths_from_values_only() {
        ObjectNode value = (ObjectNode) Json.readTree("{\"id\": \"x\", \"done\": \"plan\"}");
        assertEquals("[{\"attempts\":1,\"op\":\"plan\",\"status\":\"ok\",\"value\":{\"done\":\"plan\"}},"
                + "{\"attempts\":2,\"op\":\"patch\",\"reason\":\"timeout\",\"status\":\"degraded\"}]",
                CanonicalJson.write(new ReplayDeterminism(VOLATILE).comparable(List.of(Outcome.ok("plan", value, 1),
                        Outcome.degraded("patch", "timeout", 2)))));
        assertEquals("x", value.get("id").asString(), "the run's own outcome is not changed");
    }

    @Test
    void a_difference_names_the_first_differing_path_and_both_values() throws Exception {
        List<RunTrace> traces = runs(READS_THE_ID, 2);
        String first = traces.get(0).outcomes().get(0).reason();
        String second = traces.get(1).outcomes().get(0).reason();
        assertNotEquals(first, second);
        List<Violation> violations = new ReplayDeterminism(VOLATILE).check(traces);
        assertEquals(1, violations.size());
        Violation v = violations.get(0);
        assertEquals("s [determinism] op 'plan': run 2 differs from run 1 at outcomes[0].reason: \"" + first + "\" vs \""
                + second + "\" (bound identical outcomes, actual 2 paths differ). Make outcomes depend only on the"
                + " responses and the policy: no wall clock, randomness, or hash order; declare drifting response"
                + " fields under volatile", v.line());
    }

    @Test
    void only_the_first_run_that_departs_is_reported() throws Exception {
        LoopFactory fixed = () -> run -> List.of(Outcome.degraded("plan", "timeout", 1),
                Outcome.degraded("patch", "timeout", 1));
        List<RunTrace> traces = new ArrayList<>(runs(fixed, 2));
        traces.addAll(runs(READS_THE_ID, 2));
        List<Violation> violations = new ReplayDeterminism(VOLATILE).check(traces);
        assertEquals(1, violations.size());
        assertEquals(true, violations.get(0).message().startsWith("run 3 differs from run 1 at"
                + " outcomes[0].reason: \"timeout\" vs \""), violations.get(0).message());
    }

    @Test
    void a_different_number_of_outcomes_is_shown_as_absent() throws Exception {
        List<RunTrace> traces = new ArrayList<>(runs(LoopFactory.builtin(), 1));
        traces.addAll(runs(() -> run -> List.of(), 1));
        Violation v = new ReplayDeterminism(VOLATILE).check(traces).get(0);
        assertEquals("plan", v.op());
        assertEquals("run 2 differs from run 1 at outcomes[0]: {\"attempts\":1,\"op\":\"plan\",\"status\":\"ok\","
                + "\"value\":{\"done\":\"plan\"}} vs (absent)", v.message());
    }

    @Test
    void a_single_run_has_nothing_to_compare() throws Exception {
        assertEquals(List.of(), new ReplayDeterminism(VOLATILE).check(runs(READS_THE_ID, 1)));
    }
}
