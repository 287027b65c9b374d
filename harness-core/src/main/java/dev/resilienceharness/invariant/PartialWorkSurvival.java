package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.CanonicalJson;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Invariant 3, partial work survival: every op the loop called has exactly one outcome, in scenario order; a
 * stopped outcome comes last; a run that did not stop accounts for every op. After a process restart no op
 * finished before it is called again, and each journaled outcome is returned as first recorded.
 *
 * <p>An op counts as finished before a restart when it was called before the call that crashed and is not the
 * op that call was for: loops run ops one after another.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class PartialWorkSurvival implements ScenarioInvariant {

    @Override
    public Invariant invariant() {
        return Invariant.PARTIAL_WORK;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        String name = trace.scenario().name();
        if (trace.failure() != null && trace.failure().kind() == RunTrace.Kind.LOOP_FAILED) {
            out.add(new Violation(Invariant.PARTIAL_WORK, name, null, null, null, trace.failure().message(),
                    Messages.HINT_LOOP_FAILED));
            return out;
        }
        if (trace.failure() != null) {
            return out;
        }
        accounting(trace, out);
        restarts(trace, out);
        return out;
    }

    private static void accounting(RunTrace trace, List<Violation> out) {
        String name = trace.scenario().name();
        List<String> ops = trace.scenario().ops();
        List<String> returned = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        boolean stopped = false;
        for (Outcome o : trace.outcomes()) {
            if (stopped) {
                out.add(new Violation(Invariant.PARTIAL_WORK, name, o.op(), null, null, Messages.stopNotLast(o.op()),
                        Messages.HINT_PARTIAL));
                break;
            }
            if (!seen.add(o.op())) {
                out.add(new Violation(Invariant.PARTIAL_WORK, name, o.op(), "1 outcome", "2 or more outcomes",
                        Messages.duplicateOutcome(o.op()), Messages.HINT_PARTIAL));
            }
            returned.add(o.op());
            stopped = o.status() == Status.STOPPED;
        }
        Set<String> called = new LinkedHashSet<>();
        for (CallRecord call : trace.calls()) {
            called.add(call.op());
        }
        // A run also stopped when its last call met a quota, whatever the loop returned.
        List<CallRecord> calls = trace.calls();
        stopped |= !calls.isEmpty() && calls.get(calls.size() - 1).result() == CallRecord.Result.QUOTA;
        for (String op : ops) {
            if (!seen.contains(op) && (called.contains(op) || !stopped)) {
                out.add(new Violation(Invariant.PARTIAL_WORK, name, op, "1 outcome", "none",
                        Messages.missingOutcome(stopped, called.contains(op)), Messages.HINT_PARTIAL));
            }
        }
        List<String> expectedOrder = new ArrayList<>();
        for (String op : ops) {
            if (seen.contains(op) && !expectedOrder.contains(op)) {
                expectedOrder.add(op);
            }
        }
        List<String> distinctReturned = new ArrayList<>(new LinkedHashSet<>(returned));
        if (!distinctReturned.equals(expectedOrder)) {
            out.add(new Violation(Invariant.PARTIAL_WORK, name, null, null, null,
                    Messages.outOfOrder(expectedOrder, distinctReturned), Messages.HINT_PARTIAL));
        }
    }

    private static void restarts(RunTrace trace, List<Violation> out) {
        String name = trace.scenario().name();
        List<CallRecord> calls = trace.calls();
        Set<String> reported = new HashSet<>();
        Map<String, Outcome> finalOutcome = new HashMap<>();
        for (Outcome o : trace.outcomes()) {
            finalOutcome.putIfAbsent(o.op(), o);
        }
        for (RunTrace.Restart restart : trace.restarts()) {
            String crashedOp = calls.get(restart.afterCall()).op();
            if (restart.swallowed() && reported.add("\0swallowed")) {
                out.add(new Violation(Invariant.PARTIAL_WORK, name, crashedOp, null, null, Messages.SWALLOWED_CRASH,
                        Messages.HINT_SWALLOWED_CRASH));
            }
            Set<String> finished = new LinkedHashSet<>();
            for (int i = 0; i < restart.afterCall(); i++) {
                finished.add(calls.get(i).op());
            }
            finished.remove(crashedOp);
            Map<String, Integer> recalls = new HashMap<>();
            for (int i = restart.afterCall() + 1; i < calls.size(); i++) {
                if (finished.contains(calls.get(i).op())) {
                    recalls.merge(calls.get(i).op(), 1, Integer::sum);
                }
            }
            for (String op : finished) {
                Integer n = recalls.get(op);
                if (n != null && reported.add(op)) {
                    out.add(new Violation(Invariant.PARTIAL_WORK, name, op, "0 calls after the restart",
                            Messages.calls(n), Messages.recalledAfterRestart(n),
                            Messages.HINT_RESUME));
                }
            }
            for (Outcome journaled : restart.journaled()) {
                Outcome last = finalOutcome.get(journaled.op());
                if (last != null && !sameRecord(journaled, last) && reported.add(journaled.op())) {
                    out.add(new Violation(Invariant.PARTIAL_WORK, name, journaled.op(), null, null,
                            Messages.changedAfterRestart(summary(journaled), summary(last)), Messages.HINT_RESUME));
                }
            }
        }
    }

    /**
     * The calls that re-did an op finished before a restart: partial-work violations, which the call budget
     * leaves out so that each broken loop is reported under exactly one invariant.
     */
    static BitSet recallsAfterRestart(RunTrace trace) {
        BitSet recalls = new BitSet();
        List<CallRecord> calls = trace.calls();
        for (RunTrace.Restart restart : trace.restarts()) {
            String crashedOp = calls.get(restart.afterCall()).op();
            Set<String> finished = new HashSet<>();
            for (int i = 0; i < restart.afterCall(); i++) {
                finished.add(calls.get(i).op());
            }
            finished.remove(crashedOp);
            for (int i = restart.afterCall() + 1; i < calls.size(); i++) {
                if (finished.contains(calls.get(i).op())) {
                    recalls.set(i);
                }
            }
        }
        return recalls;
    }

    private static boolean sameRecord(Outcome a, Outcome b) {
        return CanonicalJson.sameText(a.toJson(), b.toJson());
    }

    private static String summary(Outcome o) {
        return o.status().jsonName() + (o.reason() == null ? "" : "/" + o.reason()) + " after " + o.attempts()
                + (o.attempts() == 1 ? " attempt" : " attempts");
    }
}
