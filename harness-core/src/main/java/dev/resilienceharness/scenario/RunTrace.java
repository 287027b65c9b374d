package dev.resilienceharness.scenario;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.loop.Outcome;
import java.time.Duration;
import java.util.List;

/**
 * Everything one scenario run left behind: the outcome list, every call, every wait, and every restart.
 *
 * @param scenario    the scenario run
 * @param outcomes    what the loop returned, or an empty list when it failed
 * @param calls       every transport call, in order
 * @param waits       every virtual wait, in order
 * @param totalWait   all virtual waiting
 * @param restarts    the simulated process restarts, in order
 * @param failure     how the run failed short of returning outcomes, else {@code null}
 */
public record RunTrace(Scenario scenario, List<Outcome> outcomes, List<CallRecord> calls,
        List<VirtualClock.Wait> waits, Duration totalWait, List<Restart> restarts, Failure failure) {

    public RunTrace {
        outcomes = List.copyOf(outcomes);
        calls = List.copyOf(calls);
        waits = List.copyOf(waits);
        restarts = List.copyOf(restarts);
    }

    /**
     * One simulated restart.
     *
     * @param afterCall the index of the call during which the process died
     * @param journaled the outcomes the journal held when the fresh process started
     */
    public record Restart(int afterCall, List<Outcome> journaled) {
        public Restart {
            journaled = List.copyOf(journaled);
        }
    }

    /**
     * A run that ended without an outcome list: the loop threw, ran away, or met a cassette miss.
     *
     * @param invariant the invariant the failure is reported under
     * @param message   what happened, as a sentence
     */
    public record Failure(dev.resilienceharness.invariant.Invariant invariant, String message) {
    }

    /** Total virtual waiting in milliseconds, fractions kept. */
    public double totalWaitMs() {
        return totalWait.toNanos() / 1_000_000.0;
    }
}
