package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.BuiltinLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.transport.CallFailure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A team's loop that blocks outside the harness, where no call and no wait is ever made again, fails its run under
 * bounded waiting instead of hanging the build: interrupted when it can be, left behind when it cannot.
 */
@Timeout(60) // a guard that stopped working would otherwise hang the build, which is what it is there to prevent
class StalledRunTest {

    private static final String YAML = """
            version: 1
            policy: {max_total_wait: 30s}
            scenarios:
              - name: stuck
                ops: [plan, patch]
              - name: fine
                ops: [plan, patch]
            """;

    // Long enough that a run's first, cold call on a loaded machine does not look like a stall.
    private static final Duration BOUND = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    /** How a loop waits for {@code callback}. */
    private interface Wait {
        void on(CompletableFuture<String> callback) throws Exception;
    }

    /** Completed when a test ends, so that a thread left blocked on it ends too. */
    private final CompletableFuture<String> never = new CompletableFuture<>();

    private HarnessConfig config;

    @AfterEach
    void releaseWhatWasLeftBehind() {
        never.complete("the test is over");
    }

    /** A loop that answers its first op, then waits as {@code wait} does for a callback that does not come. */
    private AgentLoop firstOpThenBlocks(Wait wait) {
        return run -> {
            List<Outcome> out = new ArrayList<>();
            String first = run.ops().get(0);
            try {
                out.add(Outcome.ok(first, run.transport().call(run.request(first)).body(), 1));
                wait.on(never);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return out;
        };
    }

    private Rehearsal rehearsal(AgentLoop loop) throws Exception {
        config = TestProject.create(dir, YAML, "plan", "patch");
        Rehearsal rehearsal = Rehearsal.prepare(config, () -> loop);
        rehearsal.stallBound(BOUND);
        return rehearsal;
    }

    @Test
    void aLoopBlockedOnAnUnboundedGetIsInterruptedAndReportedUnderBoundedWaiting() throws Exception {
        Rehearsal rehearsal = rehearsal(firstOpThenBlocks(CompletableFuture::get));
        ScenarioResult result = rehearsal.check(scenario(config, "stuck"), 2, Rehearsal.RUN_INVARIANTS);

        RunTrace.Failure failure = result.trace().failure();
        assertEquals(RunTrace.Kind.STALLED, failure.kind(), String.valueOf(failure));
        assertEquals(Thread.State.WAITING, failure.stall().state());
        assertTrue(failure.stall().millis() >= BOUND.toMillis(), String.valueOf(failure.stall()));
        assertTrue(failure.message().startsWith("the loop made no call and no wait for "), failure.message());
        assertTrue(failure.message().contains(" ms of real time (the bound is 1s): it was waiting in"
                + " java.util.concurrent.CompletableFuture.get, called from dev.resilienceharness.scenario"
                + ".StalledRunTest"), failure.message());
        assertFalse(failure.message().contains("left behind"), "the interrupt ended the loop");
        assertEquals(1, result.trace().calls().size(), "the one call before the stall is kept");

        // One violation, under bounded waiting: the exception the interrupt caused is not a partial-work failure.
        List<Violation> violations = result.violations();
        assertEquals(1, violations.size(), String.valueOf(violations));
        Violation v = violations.get(0);
        assertEquals(Invariant.BOUNDED_WAIT, v.invariant());
        assertEquals("stuck", v.subject());
        assertEquals("plan", v.op());
        assertEquals("1000 ms of real time without a call or a wait", v.bound());
        assertTrue(v.hint().startsWith("Bound the wait: Future.get(timeout, unit) instead of get() or join()"),
                v.hint());
        assertTrue(v.hint().endsWith("raise -Dresilience.stallTimeout (now 1s)"), v.hint());
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void aLoopBlockedWhereNoInterruptReachesIsLeftBehindAndTheNextScenarioRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        AgentLoop loop = run -> {
            if (run.ops().size() == 2 && runs.getAndIncrement() == 0) {
                // join() ignores interrupts: only leaving the thread behind ends this run.
                return firstOpThenBlocks(CompletableFuture::join).run(run);
            }
            return new BuiltinLoop().run(run);
        };
        Rehearsal rehearsal = rehearsal(loop);
        ScenarioResult stuck = rehearsal.check(scenario(config, "stuck"), 2, Rehearsal.RUN_INVARIANTS);

        RunTrace.Failure failure = stuck.trace().failure();
        assertEquals(RunTrace.Kind.STALLED, failure.kind(), String.valueOf(failure));
        assertTrue(failure.message().contains("it was waiting in java.util.concurrent.CompletableFuture.join, called"
                + " from dev.resilienceharness.scenario.StalledRunTest"), failure.message());
        assertTrue(failure.message().endsWith("It did not end when interrupted; its thread was left behind"),
                failure.message());
        assertEquals(1, stuck.trace().calls().size());
        assertEquals(List.of(Invariant.BOUNDED_WAIT), stuck.violations().stream().map(Violation::invariant).toList());
        // The stalled run is not repeated for determinism, which would keep the build waiting as long again.
        assertEquals(1, runs.get());

        ScenarioResult fine = rehearsal.check(scenario(config, "fine"), 2, Rehearsal.RUN_INVARIANTS);
        assertNull(fine.trace().failure());
        assertEquals(List.of(), fine.violations());
        assertEquals(2, fine.trace().outcomes().size());
    }

    @Test
    void checkingScenariosTogetherGivesUpOnTheStalledOneAndChecksTheRestOnAnotherThread() throws Exception {
        // One thread for both: the stalled scenario's thread is left behind, and the other scenario, queued behind
        // it, is checked on the thread that takes its place. Each is reported once.
        AtomicBoolean firstIsStuck = new AtomicBoolean(true);
        AgentLoop loop = run -> firstIsStuck.getAndSet(false) ? firstOpThenBlocks(CompletableFuture::join).run(run)
                : new BuiltinLoop().run(run);
        Rehearsal rehearsal = rehearsal(loop);
        java.util.Map<String, ScenarioResult> checked = new java.util.concurrent.ConcurrentHashMap<>();
        AtomicInteger reports = new AtomicInteger();
        java.util.Map<String, String> threads = new java.util.concurrent.ConcurrentHashMap<>();
        rehearsal.checkAll(config.scenarios(), 2, s -> Rehearsal.RUN_INVARIANTS, 1, (s, r) -> {
            reports.incrementAndGet();
            threads.put(s.name(), Thread.currentThread().getName());
            checked.put(s.name(), r);
        }, (s, e) -> {
            throw new AssertionError(s.name(), e);
        });
        assertEquals(2, reports.get(), "each scenario once");
        RunTrace.Failure failure = checked.get("stuck").trace().failure();
        assertEquals(RunTrace.Kind.STALLED, failure.kind(), String.valueOf(failure));
        assertTrue(failure.message().endsWith("It did not end when interrupted; its thread was left behind"),
                failure.message());
        assertEquals(List.of(Invariant.BOUNDED_WAIT), checked.get("stuck").violations().stream()
                .map(Violation::invariant).toList());
        assertNull(checked.get("fine").trace().failure());
        assertEquals(List.of(), checked.get("fine").violations());
        // The stalled scenario is reported by the waiting thread, the other by the thread that replaced the first.
        assertEquals(java.util.Map.of("stuck", Thread.currentThread().getName(), "fine", "resilience-scenarios-2"),
                threads);
    }

    @Test
    void aLoopThatSpinsWithoutCallingIsCaughtToo() throws Exception {
        AgentLoop spins = run -> {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.onSpinWait();
            }
            return List.of();
        };
        Rehearsal rehearsal = rehearsal(spins);
        ScenarioResult result = rehearsal.check(scenario(config, "stuck"), 2, Rehearsal.RUN_INVARIANTS);
        RunTrace.Failure failure = result.trace().failure();
        assertEquals(RunTrace.Kind.STALLED, failure.kind(), String.valueOf(failure));
        assertEquals(Thread.State.RUNNABLE, failure.stall().state());
        assertTrue(failure.message().contains("it kept running "), failure.message());
        Violation v = result.violations().stream().filter(x -> x.invariant() == Invariant.BOUNDED_WAIT).findFirst()
                .orElseThrow();
        assertTrue(v.hint().startsWith("Find why the loop keeps running without calling or waiting"), v.hint());
    }

    @Test
    void aLoopThatKeepsCallingForLongerThanTheBoundIsNotStalled() throws Exception {
        // Between calls it blocks for a twentieth of the bound each time (not a sleep: a park, as a lock would),
        // and makes calls for twice the bound in all.
        AgentLoop slowButWorking = (LoopRun run) -> {
            List<Outcome> out = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                LockSupport.parkNanos(BOUND.toNanos() / 20);
                String op = run.ops().get(i % 2);
                try {
                    tools.jackson.databind.JsonNode body = run.transport().call(run.request(op)).body();
                    if (i >= 38) {
                        out.add(Outcome.ok(op, body, 5));
                    }
                } catch (CallFailure e) {
                    throw new IllegalStateException(e);
                }
            }
            return out;
        };
        Rehearsal rehearsal = rehearsal(slowButWorking);
        ScenarioResult result = rehearsal.check(scenario(config, "fine"), 1,
                java.util.EnumSet.of(Invariant.BOUNDED_WAIT, Invariant.PARTIAL_WORK));
        assertNull(result.trace().failure(), String.valueOf(result.trace().failure()));
        assertEquals(40, result.trace().calls().size());
        assertEquals(List.of(), result.violations());
    }

    @Test
    void theBoundComesFromTheSystemPropertyAndZeroTurnsTheGuardOff() {
        assertEquals(StallBound.DEFAULT, StallBound.of(null));
        assertEquals(Duration.ofSeconds(30), StallBound.of("30s"));
        assertEquals(Duration.ofMinutes(5), StallBound.of("5m"));
        assertEquals(Duration.ZERO, StallBound.of("0"));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> StallBound.of("soon"));
        assertEquals("resilience.stallTimeout: expected a duration such as 10ms, 2s, 1m or a plain number of"
                + " seconds, got 'soon'. Give how long a run of the loop may make no call and no wait in real time,"
                + " such as 30s or 5m, or 0 to turn the stall guard off", e.getMessage());
    }
}
