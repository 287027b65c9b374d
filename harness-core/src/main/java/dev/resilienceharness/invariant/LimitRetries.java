package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.clock.VirtualClock;
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
import org.apiguardian.api.API;

/**
 * The call budget under {@code provider_limits}: no call at all after an {@code insufficient_quota} 429, and no retry
 * of a rate-limit 429 sooner than its {@code Retry-After} on the virtual clock. Each op is reported once, at its
 * first early retry; a retry in a new process incarnation is not judged by the 429 the old one met.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class LimitRetries implements ScenarioInvariant {

    @Override
    public Invariant invariant() {
        return Invariant.BUDGET;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        String name = trace.scenario().name();
        List<CallRecord> calls = trace.calls();
        for (int i = 0; i < calls.size(); i++) {
            CallRecord call = calls.get(i);
            if (CallRecord.INSUFFICIENT_QUOTA.equals(call.limit()) && i + 1 < calls.size()) {
                int after = calls.size() - 1 - i;
                List<CallRecord> afterwards = calls.subList(i + 1, calls.size());
                String what = Messages.retriedInsufficientQuota(after, call.op());
                String hint = Messages.HINT_INSUFFICIENT_QUOTA;
                String sdk = SdkLayer.ofCalls(afterwards);
                if (sdk != null) {
                    int retries = SdkLayer.retries(afterwards);
                    what += Messages.afterBySdk(sdk, after - retries, retries);
                    // The loop is to blame for any call it made itself; only an SDK that made them all gets the fix.
                    hint = retries == after ? Messages.hintSdkAfterInsufficientQuota(sdk, retries) : hint;
                }
                out.add(new Violation(Invariant.BUDGET, name, calls.get(i + 1).op(), "0 calls after insufficient_quota",
                        Messages.calls(after), what, hint));
                break;
            }
        }
        Map<String, CallRecord> previous = new HashMap<>();
        Set<String> reported = new HashSet<>();
        for (CallRecord call : calls) {
            CallRecord before = previous.put(call.op(), call);
            if (before == null || before.incarnation() != call.incarnation() || reported.contains(call.op())
                    || !CallRecord.RATE_LIMIT.equals(before.limit())) {
                continue;
            }
            Optional<Duration> stated = RetryAfter.parse(before.retryAfter(),
                    VirtualClock.EPOCH.plusNanos(before.atNanos()));
            Duration gap = Duration.ofNanos(call.atNanos() - before.atNanos());
            if (stated.isPresent() && gap.compareTo(stated.get()) < 0) {
                reported.add(call.op());
                String what = Messages.retriedBeforeRateLimit(BoundedWaiting.millis(gap), before.retryAfter(),
                        BoundedWaiting.millis(stated.get()));
                String hint = Messages.HINT_RATE_LIMIT;
                if (call.bySdk()) {
                    what += Messages.retriedBySdk(call.sdk());
                    hint = Messages.hintSdkRetryWait(call.sdk());
                }
                out.add(new Violation(Invariant.BUDGET, name, call.op(),
                        Messages.atLeast(BoundedWaiting.millis(stated.get())), BoundedWaiting.millis(gap), what, hint));
            }
        }
        return out;
    }
}
