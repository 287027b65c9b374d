package dev.resilienceharness.invariant;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in loop meets a timeout, an answer and a bare quota on [plan, patch, review]: [ok after 2, stopped after 1]. */
class ExpectedOutcomesTest {

    private static final String HINT = ". Fix the loop, or the scenario's expect list if the policy changed on purpose";

    @TempDir
    Path dir;

    private List<String> check(String expect) throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 1s}
                scenarios:
                  - name: s
                    ops: [plan, patch, review]
                    faults: [timeout, none, quota]
                    expect: %s
                """.formatted(expect), "plan", "patch", "review");
        RunTrace trace = Rehearsal.prepare(config, LoopFactory.builtin()).run(scenario(config, "s"), null);
        return new ExpectedOutcomes().check(trace).stream().map(Violation::line).toList();
    }

    @Test
    void lists_that_match_pass() throws Exception {
        assertEquals(List.of(), check("{status: [ok, stopped], attempts: [2, 1], reason: [null, quota],"
                + " retry_after: [null, null]}"));
        assertEquals(List.of(), check("{}"));
    }

    @Test
    void a_status_mismatch_names_the_first_op_that_differs() throws Exception {
        assertEquals(List.of("s [expectations] op 'patch': expect.status is [ok, ok] but the outcomes show [ok, stopped]"
                + " (bound [ok, ok], actual [ok, stopped])" + HINT), check("{status: [ok, ok]}"));
    }

    @Test
    void an_attempts_mismatch_is_reported() throws Exception {
        assertEquals(List.of("s [expectations] op 'plan': expect.attempts is [1, 1] but the outcomes show [2, 1]"
                + " (bound [1, 1], actual [2, 1])" + HINT), check("{attempts: [1, 1]}"));
    }

    @Test
    void a_reason_mismatch_is_reported() throws Exception {
        assertEquals(List.of("s [expectations] op 'plan': expect.reason is [timeout, quota] but the outcomes show"
                + " [null, quota] (bound [timeout, quota], actual [null, quota])" + HINT),
                check("{reason: [timeout, quota]}"));
    }

    @Test
    void a_retry_after_mismatch_is_reported_with_null_for_no_header() throws Exception {
        assertEquals(List.of("s [expectations] op 'patch': expect.retry_after is [null, \"2\"] but the outcomes show"
                + " [null, null] (bound [null, \"2\"], actual [null, null])" + HINT),
                check("{retry_after: [null, \"2\"]}"));
    }

    @Test
    void each_list_is_checked_on_its_own() throws Exception {
        List<String> lines = check("{status: [ok, ok], attempts: [2, 1], reason: [null, timeout]}");
        assertEquals(2, lines.size());
        assertEquals(true, lines.get(0).contains("expect.status is"));
        assertEquals(true, lines.get(1).contains("expect.reason is"));
    }

    @Test
    void a_list_of_another_length_is_a_mismatch() throws Exception {
        assertEquals(List.of("s [expectations] op 'review': expect.status is [ok, stopped, ok] but the outcomes show"
                + " [ok, stopped] (bound [ok, stopped, ok], actual [ok, stopped])" + HINT),
                check("{status: [ok, stopped, ok]}"));
        assertEquals(List.of("s [expectations] op 'patch': expect.attempts is [2] but the outcomes show [2, 1]"
                + " (bound [2], actual [2, 1])" + HINT), check("{attempts: [2]}"));
    }

    @Test
    void a_null_element_matches_only_an_absent_value() throws Exception {
        assertEquals(List.of("s [expectations] op 'patch': expect.reason is [null, null] but the outcomes show"
                + " [null, quota] (bound [null, null], actual [null, quota])" + HINT), check("{reason: [null, null]}"));
    }

    @Test
    void elapsed_ms_and_concurrency_lists_are_compared() throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 1s}
                scenarios:
                  - name: slow
                    ops: [plan, patch]
                    faults: [{slow_first_token: {elapsed_ms: 3500}}]
                    expect: {elapsed_ms: [3500, null], concurrency: [1, null]}
                """, "plan", "patch");
        RunTrace trace = Rehearsal.prepare(config, LoopFactory.builtin()).run(scenario(config, "slow"), null);
        assertEquals(List.of("slow [expectations] op 'plan': expect.concurrency is [1, null] but the outcomes show"
                + " [2, null] (bound [1, null], actual [2, null])" + HINT),
                new ExpectedOutcomes().check(trace).stream().map(Violation::line).toList());
    }

    @Test
    void retry_after_texts_are_shown_quoted() throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 1s, quota: {with_retry_after: stop}}
                scenarios:
                  - name: q
                    ops: [plan]
                    faults: [{quota: {retry_after: "2"}}]
                    expect: {retry_after: [2.0]}
                """, "plan");
        RunTrace trace = Rehearsal.prepare(config, LoopFactory.builtin()).run(scenario(config, "q"), null);
        assertEquals(List.of("q [expectations] op 'plan': expect.retry_after is [\"2.0\"] but the outcomes show"
                + " [\"2\"] (bound [\"2.0\"], actual [\"2\"])" + HINT),
                new ExpectedOutcomes().check(trace).stream().map(Violation::line).toList());
    }

    @Test
    void a_loop_that_throws_is_reported_once_not_once_per_expect_list() throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 1s}
                scenarios:
                  - name: throws
                    ops: [plan]
                    expect: {status: [ok], attempts: [1], reason: [null], retry_after: [null]}
                """, "plan");
        LoopFactory throwing = () -> run -> {
            throw new IllegalStateException("boom");
        };
        Rehearsal rehearsal = Rehearsal.prepare(config, throwing);
        assertEquals(List.of(), new ExpectedOutcomes().check(rehearsal.run(scenario(config, "throws"), null)));
        assertEquals(List.of("throws [partial_work]: the loop threw IllegalStateException: boom, losing every outcome"
                + " of the run. A loop must return its outcomes, not throw"), rehearsal.check(scenario(config, "throws"),
                2, Rehearsal.RUN_INVARIANTS).violations().stream().map(Violation::line).toList());
    }
}
