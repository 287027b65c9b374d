package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.transport.CallFailure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Team loops that hide what they did from the harness: one that swallows its own crash, one that calls an op the
 * scenario does not list, one that sleeps for real. Each is reported, never passed.
 */
class TeamLoopHazardsTest {

    private static final String YAML = """
            version: 1
            loop: com.acme.TeamLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - name: crash-on-patch
                ops: [plan, patch]
                faults: [none, crash]
              - name: plan-only
                ops: [plan]
                faults: []
              - name: patch-only
                ops: [patch]
                faults: [timeout]
            """;

    @TempDir
    Path dir;

    /** Catches Throwable around every call, journals what it gets and carries on: the crash never reaches the harness. */
    static final class SwallowsEverything implements AgentLoop {
        @Override
        public List<Outcome> run(LoopRun run) {
            Map<String, Outcome> done = new HashMap<>();
            run.journal().completed().forEach(o -> done.put(o.op(), o));
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                Outcome o = done.get(op);
                if (o == null) {
                    try {
                        o = Outcome.ok(op, run.transport().call(run.request(op)).body(), 1);
                    } catch (Throwable e) {
                        run.sleeper().sleep(Duration.ofSeconds(1));
                        o = Outcome.degraded(op, "timeout", 1);
                    }
                    run.journal().record(o);
                }
                out.add(o);
            }
            return out;
        }
    }

    @Test
    void aLoopThatCatchesItsOwnCrashIsReportedAndNothingTheDeadProcessDidCounts() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        ScenarioResult result = Rehearsal.prepare(config, SwallowsEverything::new)
                .check(scenario(config, "crash-on-patch"), 1, Rehearsal.RUN_INVARIANTS);
        RunTrace trace = result.trace();
        assertEquals(1, trace.restarts().size());
        assertTrue(trace.restarts().get(0).swallowed());
        // The dead process's "degraded" outcome and its one-second wait were discarded: the fresh one redid patch.
        assertEquals(List.of(Status.OK, Status.OK), trace.outcomes().stream().map(Outcome::status).toList());
        assertEquals(Duration.ZERO, trace.totalWait());
        List<Violation> partial = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.PARTIAL_WORK).toList();
        assertEquals(1, partial.size(), result.violations().toString());
        assertTrue(partial.get(0).message().startsWith("the loop caught the crash signal (ProcessRecycled, an Error)"),
                partial.get(0).message());
        assertTrue(partial.get(0).hint().startsWith("Let ProcessRecycled through"), partial.get(0).hint());
    }

    @Test
    void aCallForAnOpTheScenarioDoesNotListIsABudgetViolationNamingIt() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        AgentLoop alsoPatches = run -> {
            List<Outcome> out = new ArrayList<>();
            try {
                out.add(Outcome.ok("plan", run.transport().call(run.request("plan")).body(), 1));
                run.transport().call(run.request("patch"));
            } catch (CallFailure e) {
                throw new AssertionError(e);
            }
            return out;
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> alsoPatches)
                .check(scenario(config, "plan-only"), 1, Set.of(Invariant.BUDGET));
        assertEquals(1, result.violations().size(), result.violations().toString());
        Violation v = result.violations().get(0);
        assertEquals(Invariant.BUDGET, v.invariant());
        assertEquals("patch", v.op());
        assertEquals("0 calls", v.bound());
        assertEquals("1 call", v.actual());
        assertEquals("the loop called op 'patch', which is not one of the scenario's ops [plan]", v.message());
    }

    @Test
    void aThreadSleepInAPlainLoopIsInterruptedAndReportedUnderBoundedWaiting() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        AgentLoop sleepsForReal = run -> {
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                try {
                    run.transport().call(run.request(op));
                    out.add(Outcome.ok(op, null, 1));
                } catch (CallFailure e) {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                    }
                    out.add(Outcome.degraded(op, "timeout", 1));
                }
            }
            return out;
        };
        long start = System.nanoTime();
        ScenarioResult result = Rehearsal.prepare(config, () -> sleepsForReal)
                .check(scenario(config, "patch-only"), 1, Rehearsal.RUN_INVARIANTS);
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(30).toNanos(), "the minute-long sleep was cut short");
        assertFalse(Thread.currentThread().isInterrupted(), "the interrupt does not leak into the next run");
        List<Violation> waits = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.BOUNDED_WAIT).toList();
        assertEquals(1, waits.size(), result.violations().toString());
        Violation v = waits.get(0);
        assertEquals("0 ms of real time", v.bound());
        assertTrue(v.message().startsWith("slept "), v.message());
        assertTrue(v.message().contains("in real time in dev.resilienceharness.scenario.TeamLoopHazardsTest"),
                v.message());
        assertTrue(v.hint().startsWith("Wait with run.sleeper().sleep(...) instead of Thread.sleep"), v.hint());
        assertEquals(List.of(), result.violations().stream().filter(x -> x.invariant() == Invariant.PARTIAL_WORK)
                .toList(), "the interrupted run is reported once, under bounded waiting");
    }
}
