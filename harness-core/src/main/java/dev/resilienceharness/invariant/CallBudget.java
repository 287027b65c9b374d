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
 * op's calls and Q is 1 when a quota with a Retry-After the policy may honour hit it; no call after a stop; and
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

    /** The bound for each op that was called, in order of first call. */
    public static Map<String, Integer> bounds(RunTrace trace) {
        Policy policy = trace.scenario().policy();
        Map<String, int[]> counts = tally(trace);
        Map<String, Integer> bounds = new LinkedHashMap<>();
        counts.forEach((op, c) -> bounds.put(op, bound(policy, c)));
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

    /** Per op: calls and the faults that hit them, leaving out re-calls after a restart (partial work's). */
    private static Map<String, int[]> tally(RunTrace trace) {
        Map<String, int[]> counts = new LinkedHashMap<>();
        java.util.BitSet recalls = PartialWorkSurvival.recallsAfterRestart(trace);
        boolean quotaSpent = false;
        for (CallRecord call : trace.calls()) {
            if (recalls.get(call.index()) || quotaSpent) {
                // Calls after an insufficient_quota are LimitRetries' to report, as calls after a stop are.
                continue;
            }
            quotaSpent = CallRecord.INSUFFICIENT_QUOTA.equals(call.limit());
            int[] c = counts.computeIfAbsent(call.op(), k -> new int[6]);
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
        return counts;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        String name = trace.scenario().name();
        Policy policy = trace.scenario().policy();
        // A scenario written only for serve lists no ops: every op its client calls is its own.
        List<String> listed = trace.scenario().ops();
        tally(trace).forEach((op, c) -> {
            if (!listed.isEmpty() && !listed.contains(op)) {
                out.add(new Violation(Invariant.BUDGET, name, op, Messages.calls(0), Messages.calls(c[CALLS]),
                        Messages.unlistedOp(op, listed), Messages.HINT_UNLISTED_OP));
                return;
            }
            int bound = bound(policy, c);
            if (c[CALLS] > bound) {
                String what = Messages.overBudget(Math.min(c[T], policy.maxAttempts() - 1), c[Q] + c[L],
                        Math.min(c[S], policy.schema().repairAttempts()), c[C]);
                String hint = c[C] > 0 && withinBeforeRestart(trace, op, bound) ? Messages.HINT_BUDGET_AFTER_RESTART
                        : Messages.HINT_BUDGET;
                List<CallRecord> ofOp = callsOf(trace, op);
                String sdk = SdkLayer.ofCalls(ofOp);
                if (sdk != null) {
                    int retries = SdkLayer.retries(ofOp);
                    what += Messages.layers(sdk, c[CALLS] - retries, retries);
                    hint = Messages.hintSdkRetries(sdk, retries);
                }
                out.add(new Violation(Invariant.BUDGET, name, op, Messages.calls(bound), Messages.calls(c[CALLS]),
                        what, hint));
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

    private static List<CallRecord> callsOf(RunTrace trace, String op) {
        List<CallRecord> ofOp = new ArrayList<>();
        for (CallRecord call : trace.calls()) {
            if (call.op().equals(op)) {
                ofOp.add(call);
            }
        }
        return ofOp;
    }

    /** Whether the op kept within its bound until a restart, so the process that resumed it overspent. */
    private static boolean withinBeforeRestart(RunTrace trace, String op, int bound) {
        int first = -1;
        int calls = 0;
        for (CallRecord call : trace.calls()) {
            if (call.op().equals(op)) {
                first = first < 0 ? call.incarnation() : first;
                calls += call.incarnation() == first ? 1 : 0;
            }
        }
        return calls <= bound;
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
