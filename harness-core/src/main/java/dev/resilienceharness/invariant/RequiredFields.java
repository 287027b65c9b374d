package dev.resilienceharness.invariant;

import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The workshop table's "required log field" column, checked on every outcome record: the fields the failure that
 * ended the op requires are there. The failure is read from the op's last call in the run.
 *
 * <ul>
 *   <li>a quota rejection with {@code Retry-After}: the stopped outcome carries {@code retry_after};</li>
 *   <li>a quota rejection without the header: {@code reason: quota};</li>
 *   <li>a timeout or 5xx the op degraded on: {@code attempts} (at least 1);</li>
 *   <li>a schema-broken tool call the op degraded on: {@code reason: schema};</li>
 *   <li>a slow first token (later than {@code slow_first_token.threshold}): {@code elapsed_ms}, and
 *       {@code concurrency} lowered as the policy says: half the limit before it, at least 1.</li>
 * </ul>
 */
final class RequiredFields {

    private RequiredFields() {
    }

    static List<Violation> check(RunTrace trace) {
        Map<String, CallRecord> last = new HashMap<>();
        for (CallRecord call : trace.calls()) {
            last.put(call.op(), call);
        }
        Policy policy = trace.scenario().policy();
        String name = trace.scenario().name();
        List<Violation> out = new ArrayList<>();
        int limit = policy.concurrency();
        for (Outcome o : trace.outcomes()) {
            CallRecord call = last.get(o.op());
            if (call != null) {
                String missing = missing(o, call, policy, limit);
                if (missing != null) {
                    out.add(new Violation(Invariant.EXPECTATIONS, name, o.op(), null, null, missing,
                            Messages.HINT_FIELDS));
                }
            }
            if (o.concurrency() != null) {
                limit = o.concurrency();
            }
        }
        return out;
    }

    /** What {@code o} lacks after a run whose last call for its op was {@code call}, or {@code null}. */
    private static String missing(Outcome o, CallRecord call, Policy policy, int limit) {
        switch (call.result()) {
            case QUOTA -> {
                if (o.status() != Status.STOPPED) {
                    return null;
                }
                if (call.retryAfter() != null && o.retryAfter() == null) {
                    return Messages.missingField("a quota rejection with Retry-After \"" + call.retryAfter() + "\"",
                            "retry_after");
                }
                if (call.retryAfter() == null && !"quota".equals(o.reason())) {
                    return Messages.missingField("a quota rejection without Retry-After", "reason: quota");
                }
                return null;
            }
            case TRANSIENT -> {
                return o.status() == Status.DEGRADED && o.attempts() < 1
                        ? Messages.missingField("a transient failure", "attempts") : null;
            }
            case SCHEMA -> {
                return o.status() == Status.DEGRADED && !"schema".equals(o.reason())
                        ? Messages.missingField("a schema-broken tool call", "reason: schema") : null;
            }
            case OK -> {
                if (o.status() != Status.OK || call.firstTokenMs() == null || !slow(call.firstTokenMs(), policy)) {
                    return null;
                }
                String failure = "a slow first token (" + call.firstTokenMs() + " ms, threshold "
                        + BoundedWaiting.millis(policy.slowFirstToken().threshold()) + ")";
                if (o.elapsedMs() == null) {
                    return Messages.missingField(failure, "elapsed_ms");
                }
                int lowered = Math.max(1, limit / 2);
                if (o.concurrency() == null) {
                    return Messages.missingField(failure, "concurrency (" + lowered + ")");
                }
                if (o.concurrency() != lowered) {
                    return Messages.concurrencyNotLowered(failure, limit, lowered, o.concurrency());
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    private static boolean slow(long elapsedMs, Policy policy) {
        long thresholdNanos = policy.slowFirstToken().threshold().toNanos();
        return elapsedMs > Long.MAX_VALUE / 1_000_000L || elapsedMs * 1_000_000L > thresholdNanos;
    }
}
