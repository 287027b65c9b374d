package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Budget;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Invariant 1, call budget: for every op, calls &le; 1 + min(T, max_attempts&minus;1) + Q + min(S,
 * repair_attempts) + C, where T, S and C count the transient faults, schema failures and crashes that hit the
 * op's calls and Q is 1 when a quota with a Retry-After the policy may honour hit it; with {@code policy.max_rounds}
 * above 1 the same per model round of the op, and no more than max_rounds rounds; no call after a stop; and
 * {@code budget.max_calls_per_scenario} when given.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class CallBudget implements ScenarioInvariant {

    private final Budget budget;

    public CallBudget(Budget budget) {
        this.budget = budget;
    }

    @Override
    public Invariant invariant() {
        return Invariant.BUDGET;
    }

    /**
     * The bound for each op that was called, in order of first call: with {@code policy.max_rounds} above 1, the sum
     * of the bounds of its rounds up to max_rounds.
     */
    public static Map<String, Integer> bounds(RunTrace trace) {
        Policy policy = trace.scenario().policy();
        Map<String, Rounds> tallies = tally(trace);
        Map<String, Integer> bounds = new LinkedHashMap<>();
        tallies.forEach((op, rounds) -> {
            int sum = 0;
            for (int r = 0; r < Math.min(rounds.counts.size(), policy.maxRounds()); r++) {
                sum += bound(policy, rounds.counts.get(r));
            }
            bounds.put(op, sum);
        });
        return bounds;
    }

    /** The scenario's call budget as the reports show it: the sum of the bounds of the ops called. */
    public static int scenarioBound(RunTrace trace) {
        int sum = 0;
        for (int b : bounds(trace).values()) {
            sum += b;
        }
        return sum;
    }

    private static int bound(Policy policy, int[] c) {
        return 1 + Math.min(c[T], policy.maxAttempts() - 1) + c[Q]
                + Math.min(c[S], policy.schema().repairAttempts()) + c[C] + c[L];
    }

    private static final int CALLS = 0;
    private static final int T = 1;
    private static final int Q = 2;
    private static final int S = 3;
    private static final int C = 4;
    /** Rate-limit 429s of the provider_limits: each allows the op one more call, once its Retry-After has passed. */
    private static final int L = 5;

    /**
     * One op's counted calls, round by round. A call after an answered call of the op, in the same process
     * incarnation, starts the next round; after a restart the op counts its rounds from the first again, and rounds
     * answered before the restart that run again are re-calls, left out.
     */
    private static final class Rounds {
        final List<int[]> counts = new ArrayList<>();
        final List<List<CallRecord>> calls = new ArrayList<>();
        int incarnation = -1;
        int answered;
        int answeredBefore;

        int total() {
            int sum = 0;
            for (int[] c : counts) {
                sum += c[CALLS];
            }
            return sum;
        }

        /** The round {@code call} belongs to (0-based), or -1 for a round answered before a restart. */
        int place(CallRecord call, int maxRounds) {
            if (maxRounds == 1) {
                return 0;
            }
            if (call.incarnation() != incarnation) {
                answeredBefore = incarnation < 0 ? 0 : Math.max(answeredBefore, answered);
                incarnation = call.incarnation();
                answered = 0;
            }
            int round = answered;
            if (call.result() == CallRecord.Result.OK) {
                answered++;
            }
            return round < answeredBefore ? -1 : round;
        }

        int[] add(int round, CallRecord call) {
            while (counts.size() <= round) {
                counts.add(new int[6]);
                calls.add(new ArrayList<>());
            }
            calls.get(round).add(call);
            return counts.get(round);
        }
    }

    /** Per op: calls and the faults that hit them, leaving out re-calls after a restart (partial work's). */
    private static Map<String, Rounds> tally(RunTrace trace) {
        int maxRounds = trace.scenario().policy().maxRounds();
        Map<String, Rounds> tallies = new LinkedHashMap<>();
        java.util.BitSet recalls = PartialWorkSurvival.recallsAfterRestart(trace);
        boolean quotaSpent = false;
        for (CallRecord call : trace.calls()) {
            if (recalls.get(call.index()) || quotaSpent) {
                // Calls after an insufficient_quota are LimitRetries' to report, as calls after a stop are.
                continue;
            }
            quotaSpent = CallRecord.INSUFFICIENT_QUOTA.equals(call.limit());
            Rounds rounds = tallies.computeIfAbsent(call.op(), k -> new Rounds());
            int round = rounds.place(call, maxRounds);
            if (round < 0) {
                continue;
            }
            int[] c = rounds.add(round, call);
            c[CALLS]++;
            switch (call.result()) {
                case TRANSIENT -> c[T]++;
                case SCHEMA -> c[S]++;
                case CRASH -> c[C]++;
                case QUOTA -> {
                    if (CallRecord.RATE_LIMIT.equals(call.limit())) {
                        c[L]++;
                    } else if (call.honourable()) {
                        c[Q] = 1;
                    }
                }
                case OK -> {
                }
            }
        }
        return tallies;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        String name = trace.scenario().name();
        Policy policy = trace.scenario().policy();
        // A scenario written only for serve lists no ops: every op its client calls is its own.
        List<String> listed = trace.scenario().ops();
        tally(trace).forEach((op, rounds) -> {
            if (!listed.isEmpty() && !listed.contains(op)) {
                out.add(new Violation(Invariant.BUDGET, name, op, Messages.calls(0), Messages.calls(rounds.total()),
                        Messages.unlistedOp(op, listed), Messages.HINT_UNLISTED_OP));
                return;
            }
            if (rounds.counts.size() > policy.maxRounds()) {
                out.add(new Violation(Invariant.BUDGET, name, op, Messages.rounds(policy.maxRounds()),
                        Messages.rounds(rounds.counts.size()), Messages.roundBeyond(policy.maxRounds() + 1,
                                policy.maxRounds()), Messages.HINT_ROUNDS));
            }
            for (int r = 0; r < Math.min(rounds.counts.size(), policy.maxRounds()); r++) {
                // With one round the op is the round: its audit and restart hint read all the op's calls, as always.
                Violation over = overBound(name, op, policy, rounds.counts.get(r),
                        policy.maxRounds() == 1 ? callsOf(trace, op) : rounds.calls.get(r));
                if (over != null) {
                    out.add(policy.maxRounds() == 1 ? over : new Violation(over.invariant(), over.subject(), op,
                            over.bound(), over.actual(), Messages.inRound(r + 1, over.message()), over.hint()));
                }
            }
        });
        afterStop(trace, out);
        Integer cap = budget.maxCallsPerScenario();
        if (cap != null && trace.calls().size() > cap) {
            String what = Messages.scenarioCap(trace.calls().size(), cap);
            String hint = Messages.HINT_SCENARIO_CAP;
            String sdk = SdkLayer.ofCalls(trace.calls());
            if (sdk != null) {
                int retries = SdkLayer.retries(trace.calls());
                what += Messages.layers(sdk, trace.calls().size() - retries, retries);
                hint = Messages.hintSdkCalls(sdk, retries);
            }
            out.add(new Violation(Invariant.BUDGET, name, null, Messages.calls(cap), Messages.calls(trace.calls().size()),
                    what, hint));
        }
        if (trace.failure() != null && trace.failure().kind() == RunTrace.Kind.UNLISTED_OP) {
            out.add(new Violation(Invariant.BUDGET, name, null, null, null, trace.failure().message(),
                    Messages.HINT_UNLISTED_OP));
        }
        if (trace.failure() != null && trace.failure().kind() == RunTrace.Kind.RUNAWAY_CALLS) {
            out.add(new Violation(Invariant.BUDGET, name, null, null, null, trace.failure().message(),
                    Messages.HINT_BUDGET));
        }
        return out;
    }

    /**
     * The violation of one round (the whole op with {@code max_rounds} 1) over its bound, or {@code null}.
     *
     * @param ofRound the round's calls as counted; with one round, every call of the op
     */
    private static Violation overBound(String name, String op, Policy policy, int[] c, List<CallRecord> ofRound) {
        int bound = bound(policy, c);
        if (c[CALLS] <= bound) {
            return null;
        }
        String what = Messages.overBudget(Math.min(c[T], policy.maxAttempts() - 1), c[Q] + c[L],
                Math.min(c[S], policy.schema().repairAttempts()), c[C]);
        String hint = c[C] > 0 && withinBeforeRestart(ofRound, bound) ? Messages.HINT_BUDGET_AFTER_RESTART
                : Messages.HINT_BUDGET;
        String sdk = SdkLayer.ofCalls(ofRound);
        if (sdk != null) {
            int retries = SdkLayer.retries(ofRound);
            what += Messages.layers(sdk, c[CALLS] - retries, retries);
            hint = Messages.hintSdkRetries(sdk, retries);
        }
        return new Violation(Invariant.BUDGET, name, op, Messages.calls(bound), Messages.calls(c[CALLS]), what, hint);
    }

    private static List<CallRecord> callsOf(RunTrace trace, String op) {
        List<CallRecord> ofOp = new ArrayList<>();
        for (CallRecord call : trace.calls()) {
            if (call.op().equals(op)) {
                ofOp.add(call);
            }
        }
        return ofOp;
    }

    /** Whether these calls kept within their bound until a restart, so the process that resumed them overspent. */
    private static boolean withinBeforeRestart(List<CallRecord> calls, int bound) {
        int first = -1;
        int count = 0;
        for (CallRecord call : calls) {
            first = first < 0 ? call.incarnation() : first;
            count += call.incarnation() == first ? 1 : 0;
        }
        return count <= bound;
    }

    private static void afterStop(RunTrace trace, List<Violation> out) {
        String stoppedOp = null;
        for (Outcome o : trace.outcomes()) {
            if (o.status() == Status.STOPPED) {
                stoppedOp = o.op();
                break;
            }
        }
        if (stoppedOp == null) {
            return;
        }
        int lastQuota = -1;
        for (CallRecord call : trace.calls()) {
            if (call.op().equals(stoppedOp) && call.result() == CallRecord.Result.QUOTA) {
                lastQuota = call.index();
            }
        }
        if (lastQuota < 0) {
            return;
        }
        int after = trace.calls().size() - 1 - lastQuota;
        if (after > 0) {
            List<CallRecord> afterwards = trace.calls().subList(lastQuota + 1, trace.calls().size());
            String what = Messages.callsAfterStop(after, stoppedOp);
            String hint = Messages.HINT_AFTER_STOP;
            String sdk = SdkLayer.ofCalls(afterwards);
            if (sdk != null) {
                int retries = SdkLayer.retries(afterwards);
                what += Messages.afterBySdk(sdk, after - retries, retries);
                // The loop is to blame for any call it made itself; only an SDK that made them all gets the fix.
                hint = retries == after ? Messages.hintSdkAfterStop(sdk, retries) : hint;
            }
            out.add(new Violation(Invariant.BUDGET, trace.scenario().name(), afterwards.get(0).op(),
                    "0 calls after a stop", Messages.calls(after), what, hint));
        }
    }
}
