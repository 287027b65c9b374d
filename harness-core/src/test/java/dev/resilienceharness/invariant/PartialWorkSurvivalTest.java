package dev.resilienceharness.invariant;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.brokenloops.DropsWorkOnStopLoop;
import dev.resilienceharness.brokenloops.ForgetfulRestartLoop;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.transport.CallFailure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartialWorkSurvivalTest {

    private static final String HINT_PARTIAL = ". Keep every finished op's outcome, in order, and return them when the"
            + " run stops";
    private static final String HINT_RESUME = ". Journal each finished op (LoopRun.journal().record) and skip"
            + " journaled ops when the loop starts";

    @TempDir
    Path dir;

    private RunTrace run(String faults, LoopFactory loop) throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 1s}
                scenarios:
                  - name: work
                    ops: [plan, patch, review]
                    faults: %s
                """.formatted(faults), "plan", "patch", "review");
        return Rehearsal.prepare(config, loop).run(scenario(config, "work"), null);
    }

    /** A loop that calls every op once and then returns what {@code reshape} makes of the honest outcome list. */
    private static LoopFactory callsAllThenReturns(Function<List<Outcome>, List<Outcome>> reshape) {
        return () -> run -> {
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                try {
                    out.add(Outcome.ok(op, run.transport().call(run.request(op)).body(), 1));
                } catch (CallFailure e) {
                    out.add(Outcome.degraded(op, "timeout", 1));
                }
            }
            return reshape.apply(out);
        };
    }

    private static List<String> lines(RunTrace trace) {
        return new PartialWorkSurvival().check(trace).stream().map(Violation::line).toList();
    }

    @Test
    void a_sound_loop_keeps_everything_through_a_stop_and_a_restart() throws Exception {
        assertEquals(List.of(), lines(run("[none, quota]", LoopFactory.builtin())));
        assertEquals(List.of(), lines(run("[none, crash, timeout]", LoopFactory.builtin())));
    }

    @Test
    void an_op_missing_from_a_run_that_did_not_stop_is_reported() throws Exception {
        RunTrace trace = run("[]", callsAllThenReturns(out -> List.of(out.get(0), out.get(2))));
        assertEquals(List.of("work [partial_work] op 'patch': has no outcome although the run did not stop (bound 1"
                + " outcome, actual none)" + HINT_PARTIAL), lines(trace));
    }

    @Test
    void work_finished_before_a_stop_and_then_dropped_is_reported() throws Exception {
        RunTrace trace = run("[none, quota]", DropsWorkOnStopLoop::new);
        assertEquals(List.of(
                "work [partial_work] op 'plan': was called before the stop but is missing from the outcome list (bound 1"
                        + " outcome, actual none)" + HINT_PARTIAL,
                "work [partial_work] op 'patch': was called before the stop but is missing from the outcome list"
                        + " (bound 1 outcome, actual none)" + HINT_PARTIAL), lines(trace));
    }

    @Test
    void an_op_returned_twice_is_reported() throws Exception {
        RunTrace trace = run("[]", callsAllThenReturns(out -> List.of(out.get(0), out.get(0), out.get(1), out.get(2))));
        assertEquals(List.of("work [partial_work] op 'plan': appears more than once in the outcome list (bound 1"
                + " outcome, actual 2 or more outcomes)" + HINT_PARTIAL), lines(trace));
    }

    @Test
    void outcomes_out_of_scenario_order_are_reported() throws Exception {
        RunTrace trace = run("[]", callsAllThenReturns(out -> List.of(out.get(1), out.get(0), out.get(2))));
        assertEquals(List.of("work [partial_work]: outcomes are out of order: expected [plan, patch, review], got"
                + " [patch, plan, review]" + HINT_PARTIAL), lines(trace));
    }

    @Test
    void a_stopped_outcome_followed_by_more_is_reported() throws Exception {
        LoopFactory loop = () -> run -> List.of(Outcome.stopped("plan", null, 1), Outcome.ok("patch", null, 1));
        assertEquals(List.of("work [partial_work] op 'patch': a stopped outcome is followed by more outcomes"
                + HINT_PARTIAL), lines(run("[]", loop)));
    }

    @Test
    void an_op_finished_before_a_restart_and_called_again_is_reported() throws Exception {
        RunTrace trace = run("[none, crash]", ForgetfulRestartLoop::new);
        assertEquals(List.of("work [partial_work] op 'plan': finished before the process restart but was called again"
                + " after it (1 call) (bound 0 calls after the restart, actual 1 call)" + HINT_RESUME), lines(trace));
    }

    /** Journals honestly and skips journaled ops, but returns a journaled outcome with one more attempt. */
    static final class RewritesHistoryLoop implements AgentLoop {
        @Override
        public List<Outcome> run(LoopRun run) {
            Map<String, Outcome> journaled = new HashMap<>();
            run.journal().completed().forEach(o -> journaled.put(o.op(), o));
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                Outcome before = journaled.get(op);
                if (before != null) {
                    out.add(Outcome.ok(op, before.value(), before.attempts() + 1));
                    continue;
                }
                Outcome o;
                try {
                    o = Outcome.ok(op, run.transport().call(run.request(op)).body(), 1);
                } catch (CallFailure e) {
                    o = Outcome.degraded(op, "timeout", 1);
                }
                run.journal().record(o);
                out.add(o);
            }
            return out;
        }
    }

    @Test
    void a_journaled_outcome_changed_across_the_restart_is_reported() throws Exception {
        RunTrace trace = run("[none, crash]", RewritesHistoryLoop::new);
        assertEquals(List.of("plan", "patch", "patch", "review"), trace.calls().stream().map(c -> c.op()).toList(),
                "nothing finished is called again");
        assertEquals(List.of("work [partial_work] op 'plan': its outcome changed across the restart: journaled ok after"
                + " 1 attempt, returned ok after 2 attempts" + HINT_RESUME), lines(trace));
    }
}
