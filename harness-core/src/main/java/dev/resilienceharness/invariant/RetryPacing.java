package dev.resilienceharness.invariant;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.transport.RetryAfter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The lower half of bounded waiting: a retry comes no sooner than the policy says. After a quota rejection whose
 * {@code Retry-After} the policy may honour, the op's next call comes at least the stated delay later on the virtual
 * clock; after the op's n-th transient failure, at least {@code min(base_delay*2^(n-1), max_delay)} later, or the
 * shorter wait its declared {@code jitter} allows (none with {@code full}, half with {@code equal}).
 *
 * <p>Each op is reported once, at its first early retry. n counts the op's transient failures since its process
 * last started (with {@code policy.max_rounds} above 1, since the op's last answered call: in the current round), so a
 * loop that resumes after a restart
 * without its retry count is not judged by the count it lost. The call lost in a crash may be repeated at once.
 */
final class RetryPacing {

    private RetryPacing() {
    }

    static List<Violation> check(RunTrace trace) {
        Policy policy = trace.scenario().policy();
        String name = trace.scenario().name();
        Map<String, CallRecord> previous = new HashMap<>();
        Map<String, Integer> transientFailures = new HashMap<>();
        Set<String> reported = new HashSet<>();
        List<Violation> out = new ArrayList<>();
        for (CallRecord call : trace.calls()) {
            CallRecord before = previous.put(call.op(), call);
            if (before != null && before.incarnation() == call.incarnation()) {
                Violation v = reported.contains(call.op()) ? null : judge(name, policy, before,
                        transientFailures.getOrDefault(call.op(), 0), call);
                if (v != null) {
                    out.add(v);
                    reported.add(call.op());
                }
            } else {
                transientFailures.put(call.op(), 0);
            }
            if (call.result() == CallRecord.Result.TRANSIENT) {
                transientFailures.merge(call.op(), 1, Integer::sum);
            } else if (call.result() == CallRecord.Result.OK && policy.maxRounds() > 1) {
                // The op's next call starts its next round (policy.max_rounds), whose retries count from one again.
                transientFailures.put(call.op(), 0);
            }
        }
        return out;
    }

    /**
     * The violation of the retry {@code call} after {@code before}, or {@code null} when it waited long enough; a retry
     * an SDK made itself names the SDK and its fix.
     */
    private static Violation judge(String scenario, Policy policy, CallRecord before, int transientCount,
            CallRecord call) {
        Duration gap = Duration.ofNanos(call.atNanos() - before.atNanos());
        String bySdk = call.bySdk() ? Messages.retriedBySdk(call.sdk()) : "";
        if (before.result() == CallRecord.Result.QUOTA && before.honourable()) {
            Optional<Duration> stated = RetryAfter.parse(before.retryAfter(),
                    VirtualClock.EPOCH.plusNanos(before.atNanos()));
            if (stated.isPresent() && gap.compareTo(stated.get()) < 0) {
                return new Violation(Invariant.BOUNDED_WAIT, scenario, before.op(),
                        Messages.atLeast(BoundedWaiting.millis(stated.get())), BoundedWaiting.millis(gap),
                        Messages.retriedBeforeRetryAfter(BoundedWaiting.millis(gap), before.retryAfter(),
                                BoundedWaiting.millis(stated.get())) + bySdk,
                        call.bySdk() ? Messages.hintSdkRetryWait(call.sdk()) : Messages.HINT_RETRY_AFTER);
            }
        } else if (before.result() == CallRecord.Result.TRANSIENT && transientCount > 0) {
            Duration least = policy.minimumBackoff(transientCount);
            if (gap.compareTo(least) < 0) {
                return new Violation(Invariant.BOUNDED_WAIT, scenario, before.op(),
                        Messages.atLeast(BoundedWaiting.millis(least)), BoundedWaiting.millis(gap),
                        Messages.retriedBeforeBackoff(BoundedWaiting.millis(gap), transientCount,
                                BoundedWaiting.millis(policy.backoff(transientCount)), policy.jitter().yamlName(),
                                BoundedWaiting.millis(least)) + bySdk,
                        call.bySdk() ? Messages.hintSdkBackoff(call.sdk()) : Messages.HINT_BACKOFF);
            }
        }
        return null;
    }
}
