package dev.resilienceharness.invariant;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.trace.CallRecord;
import java.util.List;

/**
 * The retry-stack audit: which SDK layer made some of the calls or the waits a violation counts, so that its line names
 * that layer and gives that SDK's fix rather than blaming the loop (docs: "What every adapter does").
 */
final class SdkLayer {

    private SdkLayer() {
    }

    /** The SDK whose own retries made some of {@code calls}, or {@code null} when the loop made them all. */
    static String ofCalls(List<CallRecord> calls) {
        for (CallRecord call : calls) {
            if (call.bySdk()) {
                return call.sdk();
            }
        }
        return null;
    }

    /** How many of {@code calls} an SDK made as its own retries. */
    static int retries(List<CallRecord> calls) {
        int n = 0;
        for (CallRecord call : calls) {
            if (call.bySdk()) {
                n++;
            }
        }
        return n;
    }

    /** The tokens that an SDK's own retries among {@code calls} spent. */
    static long retryTokens(List<CallRecord> calls) {
        long n = 0;
        for (CallRecord call : calls) {
            if (call.bySdk()) {
                n += call.tokens().total();
            }
        }
        return n;
    }

    /** The SDK that took some of {@code waits} between its own retries, or {@code null} when the loop took them all. */
    static String ofWaits(List<VirtualClock.Wait> waits) {
        for (VirtualClock.Wait wait : waits) {
            if (wait.by() != null) {
                return wait.by();
            }
        }
        return null;
    }

    /** The virtual nanoseconds that an SDK's own waits among {@code waits} took. */
    static long waitedNanos(List<VirtualClock.Wait> waits) {
        long n = 0;
        for (VirtualClock.Wait wait : waits) {
            if (wait.by() != null) {
                n += wait.nanos();
            }
        }
        return n;
    }

    /** The SDK's name without its version: {@code openai-java} of {@code openai-java 4.105.0}. */
    static String name(String sdk) {
        int space = sdk.indexOf(' ');
        return space < 0 ? sdk : sdk.substring(0, space);
    }
}
