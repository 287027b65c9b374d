package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.trace.RunTrace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Invariant 4, bounded waiting: total virtual waiting in a run is at most {@code max_total_wait}, and no retry comes
 * sooner than the policy's stated delay or backoff ({@link RetryPacing}). A run that slept in real time, or stalled
 * (made no call and no wait for the stall bound of real time, see {@code StallBound}), breaks it too.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class BoundedWaiting implements ScenarioInvariant {

    @Override
    public Invariant invariant() {
        return Invariant.BOUNDED_WAIT;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        Duration bound = trace.scenario().policy().maxTotalWait();
        if (trace.totalWait().compareTo(bound) > 0) {
            String what = Messages.waitedTooLong(millis(trace.totalWait()), millis(bound));
            String hint = Messages.HINT_WAIT;
            String sdk = SdkLayer.ofWaits(trace.waits());
            if (sdk != null) {
                what += Messages.waitsBySdk(sdk, millis(Duration.ofNanos(SdkLayer.waitedNanos(trace.waits()))));
                hint = Messages.hintSdkWaits(sdk);
            }
            out.add(new Violation(Invariant.BOUNDED_WAIT, trace.scenario().name(), lastWaitingOp(trace),
                    millis(bound), millis(trace.totalWait()), what, hint));
        }
        for (var sleep : trace.realSleeps()) {
            out.add(new Violation(Invariant.BOUNDED_WAIT, trace.scenario().name(), opAt(trace), "0 ms of real time",
                    sleep.millis() + " ms of real time", Messages.sleptForReal(sleep.millis(), sleep.where()),
                    Messages.hintRealSleep(sleep.where())));
            // One real sleep says it all; the harness interrupted the rest, which would only repeat it.
            break;
        }
        if (trace.failure() != null && trace.failure().kind() == RunTrace.Kind.STALLED) {
            RunTrace.Failure f = trace.failure();
            out.add(new Violation(Invariant.BOUNDED_WAIT, trace.scenario().name(), opAt(trace),
                    millis(f.stallBound()) + " of real time without a call or a wait",
                    f.stall().millis() + " ms of real time", f.message(),
                    Messages.hintStall(f.stall().state(), dev.resilienceharness.config.Durations.format(f.stallBound()))));
        }
        if (trace.failure() != null && trace.failure().kind() == RunTrace.Kind.RUNAWAY_WAITS) {
            out.add(new Violation(Invariant.BOUNDED_WAIT, trace.scenario().name(), null, millis(bound), null,
                    trace.failure().message(), Messages.HINT_WAIT));
        }
        out.addAll(RetryPacing.check(trace));
        return out;
    }

    /** The op of the run's last call: the one a real sleep held up. */
    private static String opAt(RunTrace trace) {
        return trace.calls().isEmpty() ? null : trace.calls().get(trace.calls().size() - 1).op();
    }

    /** The op that was waiting when the bound was crossed: the op of the last call before that wait. */
    private static String lastWaitingOp(RunTrace trace) {
        long bound = trace.scenario().policy().maxTotalWait().toNanos();
        long total = 0;
        for (var wait : trace.waits()) {
            total += wait.nanos();
            if (total > bound) {
                String op = null;
                for (var call : trace.calls()) {
                    if (call.atNanos() <= wait.startNanos()) {
                        op = call.op();
                    }
                }
                return op;
            }
        }
        return null;
    }

    /** A duration in milliseconds as a person reads it: {@code 30000 ms}, {@code 0.5 ms}. */
    static String millis(Duration d) {
        long nanos = d.toNanos();
        if (nanos % 1_000_000 == 0) {
            return nanos / 1_000_000 + " ms";
        }
        return java.math.BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + " ms";
    }
}
