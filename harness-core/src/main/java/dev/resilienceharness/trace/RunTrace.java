package dev.resilienceharness.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.clock.RealSleepWatch;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.loop.Outcome;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

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
 * @param realSleeps  every sleep in real time the run's thread made (a {@code Thread.sleep} the harness could not
 *                    make virtual), in order
 * @param streams     every streamed answer an SDK read, by call, in order
 * @param tools       every tool execution, in order
 * @param mcp         every message an MCP client sent to an MCP server, in order (docs mcp.md)
 */
@API(status = INTERNAL, since = "0.1.0")
public record RunTrace(Scenario scenario, List<Outcome> outcomes, List<CallRecord> calls,
        List<VirtualClock.Wait> waits, Duration totalWait, List<Restart> restarts, Failure failure,
        List<RealSleepWatch.RealSleep> realSleeps, List<StreamTrace> streams, List<ToolRecord> tools,
        List<McpRecord> mcp) {

    public RunTrace {
        tools = List.copyOf(tools);
        mcp = List.copyOf(mcp);
        outcomes = List.copyOf(outcomes);
        calls = List.copyOf(calls);
        waits = List.copyOf(waits);
        restarts = List.copyOf(restarts);
        realSleeps = List.copyOf(realSleeps);
        streams = List.copyOf(streams);
    }

    /** A run that reached no MCP server. */
    public RunTrace(Scenario scenario, List<Outcome> outcomes, List<CallRecord> calls, List<VirtualClock.Wait> waits,
            Duration totalWait, List<Restart> restarts, Failure failure, List<RealSleepWatch.RealSleep> realSleeps,
            List<StreamTrace> streams, List<ToolRecord> tools) {
        this(scenario, outcomes, calls, waits, totalWait, restarts, failure, realSleeps, streams, tools, List.of());
    }

    /** A run that executed no tool through the harness. */
    public RunTrace(Scenario scenario, List<Outcome> outcomes, List<CallRecord> calls, List<VirtualClock.Wait> waits,
            Duration totalWait, List<Restart> restarts, Failure failure, List<RealSleepWatch.RealSleep> realSleeps,
            List<StreamTrace> streams) {
        this(scenario, outcomes, calls, waits, totalWait, restarts, failure, realSleeps, streams, List.of());
    }

    /** A run that streamed nothing. */
    public RunTrace(Scenario scenario, List<Outcome> outcomes, List<CallRecord> calls, List<VirtualClock.Wait> waits,
            Duration totalWait, List<Restart> restarts, Failure failure, List<RealSleepWatch.RealSleep> realSleeps) {
        this(scenario, outcomes, calls, waits, totalWait, restarts, failure, realSleeps, List.of());
    }

    /** A run that never slept in real time. */
    public RunTrace(Scenario scenario, List<Outcome> outcomes, List<CallRecord> calls, List<VirtualClock.Wait> waits,
            Duration totalWait, List<Restart> restarts, Failure failure) {
        this(scenario, outcomes, calls, waits, totalWait, restarts, failure, List.of());
    }

    /**
     * One simulated restart.
     *
     * @param afterCall the index of the call during which the process died
     * @param journaled the outcomes the journal held when the fresh process started
     * @param swallowed whether the loop caught its own process's death and went on acting as a dead process (its
     *                  calls, waits and journal writes after the crash were discarded)
     */
    public record Restart(int afterCall, List<Outcome> journaled, boolean swallowed) {
        public Restart {
            journaled = List.copyOf(journaled);
        }

        /** A restart after a crash the loop let through. */
        public Restart(int afterCall, List<Outcome> journaled) {
            this(afterCall, journaled, false);
        }
    }

    /**
     * A run that ended without an outcome list: the loop threw, ran away, stalled, or met a cassette miss.
     *
     * @param kind       what went wrong, which decides the invariant it is reported under
     * @param message    what happened, as a sentence
     * @param stall      for {@link Kind#STALLED}, what the watch saw; else {@code null}
     * @param stallBound for {@link Kind#STALLED}, the bound the run crossed; else {@code null}
     */
    public record Failure(Kind kind, String message, RealSleepWatch.Stall stall, Duration stallBound) {

        /** A failure that is not a stall. */
        public Failure(Kind kind, String message) {
            this(kind, message, null, null);
        }
    }

    /** How a run can end short of its outcome list; each kind is reported under one invariant. */
    public enum Kind {
        /** The loop threw, returned null or kept dying: partial work. */
        LOOP_FAILED,
        /** The loop made too many calls: budget. */
        RUNAWAY_CALLS,
        /** The loop waited too many times: bounded waiting. */
        RUNAWAY_WAITS,
        /** A request no cassette answers: cassette integrity. */
        CASSETTE,
        /** A call for no op of the scenario that nothing can answer: budget. */
        UNLISTED_OP,
        /** The loop slept in real time and was interrupted: bounded waiting, through {@link #realSleeps()}. */
        REAL_SLEEP,
        /**
         * The loop made no call and no wait for longer than the stall bound in real time, blocked outside the harness
         * or spinning, and was interrupted (or left behind): bounded waiting.
         */
        STALLED
    }

    /** Total virtual waiting in milliseconds, fractions kept. */
    public double totalWaitMs() {
        return totalWait.toNanos() / 1_000_000.0;
    }
}
