package dev.resilienceharness.invariant;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.transport.CallFailure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BoundedWaitingTest {

    @TempDir
    Path dir;

    /** A loop that calls each op once and then waits the next of {@code waits} (nothing once they run out). */
    private static LoopFactory callThenWait(Duration... waits) {
        return () -> run -> {
            List<Outcome> out = new ArrayList<>();
            int i = 0;
            for (String op : run.ops()) {
                try {
                    out.add(Outcome.ok(op, run.transport().call(run.request(op)).body(), 1));
                } catch (CallFailure e) {
                    out.add(Outcome.degraded(op, "timeout", 1));
                }
                if (i < waits.length) {
                    run.sleeper().sleep(waits[i++]);
                }
            }
            return out;
        };
    }

    private RunTrace run(String maxTotalWait, LoopFactory loop, String... ops) throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: %s}
                scenarios:
                  - name: waits
                    ops: %s
                """.formatted(maxTotalWait, List.of(ops)), "plan", "patch", "review");
        return Rehearsal.prepare(config, loop).run(scenario(config, "waits"), null);
    }

    private static List<Violation> check(RunTrace trace) {
        return new BoundedWaiting().check(trace);
    }

    @Test
    void waiting_exactly_the_bound_passes() throws Exception {
        RunTrace trace = run("3s", callThenWait(Duration.ofSeconds(1), Duration.ofSeconds(2)), "plan", "patch");
        assertEquals(Duration.ofSeconds(3), trace.totalWait());
        assertEquals(List.of(), check(trace));
    }

    @Test
    void one_nanosecond_over_the_bound_fails_naming_the_op_that_waited() throws Exception {
        RunTrace trace = run("3s", callThenWait(Duration.ofSeconds(3).plusNanos(1)), "plan");
        List<Violation> violations = check(trace);
        assertEquals(1, violations.size());
        assertEquals("waits [bounded_wait] op 'plan': waited 3000.000001 ms in total; policy.max_total_wait is 3000 ms"
                + " (bound 3000 ms, actual 3000.000001 ms). Check the total before each wait and degrade or stop"
                + " instead of waiting past policy.max_total_wait", violations.get(0).line());
    }

    @Test
    void the_op_named_is_the_one_whose_wait_crossed_the_bound() throws Exception {
        RunTrace trace = run("3s", callThenWait(Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(1)),
                "plan", "patch", "review");
        List<Violation> violations = check(trace);
        assertEquals(1, violations.size());
        assertEquals("patch", violations.get(0).op());
        assertEquals("4500 ms", violations.get(0).actual());
    }

    @Test
    void fractions_of_a_millisecond_are_shown_as_decimals() throws Exception {
        RunTrace trace = run("0.0005", callThenWait(Duration.ofNanos(1_250_000)), "plan");
        Violation v = check(trace).get(0);
        assertEquals("0.5 ms", v.bound());
        assertEquals("1.25 ms", v.actual());
        assertEquals("waited 1.25 ms in total; policy.max_total_wait is 0.5 ms", v.message());
    }

    @Test
    void waiting_before_any_call_names_no_op() throws Exception {
        LoopFactory waitsFirst = () -> run -> {
            run.sleeper().sleep(Duration.ofSeconds(5));
            return List.of();
        };
        Violation v = check(run("1s", waitsFirst, "plan")).get(0);
        assertEquals(null, v.op());
        assertEquals("waits [bounded_wait]: waited 5000 ms in total; policy.max_total_wait is 1000 ms (bound 1000 ms,"
                + " actual 5000 ms). Check the total before each wait and degrade or stop instead of waiting past"
                + " policy.max_total_wait", v.line());
    }

    @Test
    void a_loop_cut_short_for_waiting_without_end_is_reported_here() throws Exception {
        LoopFactory waitsForever = () -> run -> {
            while (true) {
                run.sleeper().sleep(Duration.ZERO);
            }
        };
        RunTrace trace = run("1s", waitsForever, "plan");
        List<Violation> violations = check(trace);
        assertEquals(1, violations.size(), "no time passed, but the run never ended");
        assertEquals("waits [bounded_wait]: run cut short: the loop waited 100000 times in one run without finishing"
                + " (bound 1000 ms, actual -). Check the total before each wait and degrade or stop instead of"
                + " waiting past policy.max_total_wait", violations.get(0).line());
    }
}
