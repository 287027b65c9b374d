package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * An SDK's retry waits on a run's virtual clock, as every adapter's sleeper makes them: each wait counts towards
 * {@code max_total_wait} and the timeline marks it as the SDK's, and no real time passes.
 *
 * <p>The blocking and the asynchronous wait behave alike: both wait at once, on the calling thread, so the run's
 * order of calls and waits is the order the SDK made them. A wait the run refuses (a negative duration) throws from
 * {@link #sleep} and fails the future of {@link #sleepAsync}; the crash of the run's process ({@code ProcessRecycled},
 * an {@link Error}) is thrown from both, as it is from every call, so that no SDK can hold it in a future.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class SdkSleeper {

    private final HttpEndpoint endpoint;
    private final Supplier<String> sdk;
    private final SdkBackoff backoff;
    /** The last answer on each thread: an SDK answers, then waits, on the thread that made the call. */
    private final ThreadLocal<LastAnswer> last = new ThreadLocal<>();

    /** @param sdk the SDK the waits are marked with, read at each wait (an SDK may name its version late) */
    public SdkSleeper(HttpEndpoint endpoint, Supplier<String> sdk) {
        this(endpoint, sdk, null);
    }

    /**
     * A sleeper that waits {@code backoff}'s nominal value for a jittered backoff of the SDK.
     *
     * @param backoff the SDK's backoff formula, or {@code null} to wait every duration as asked
     */
    public SdkSleeper(HttpEndpoint endpoint, Supplier<String> sdk, SdkBackoff backoff) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.sdk = Objects.requireNonNull(sdk, "sdk");
        this.backoff = backoff;
    }

    /**
     * Tells the sleeper what the SDK's attempt got: the next wait on this thread is the backoff before retry
     * {@code attempt.sdkRetry() + 1}, unless the answer stated its delay.
     */
    public void answered(HttpAttempt attempt, HttpAnswer answer) {
        boolean stated = answer instanceof HttpAnswer.Response r
                && (r.header("retry-after") != null || r.header("retry-after-ms") != null);
        last.set(new LastAnswer(attempt.sdkRetry() + 1, stated));
    }

    /** Waits {@code duration} on the run's virtual clock (its nominal value, for the SDK's jittered backoff). */
    public void sleep(Duration duration) {
        LastAnswer before = last.get();
        last.remove();
        Duration wait = duration;
        if (backoff != null && before != null && !before.stated() && !duration.isNegative()) {
            wait = backoff.reproducible(before.nextRetry(), duration);
        }
        endpoint.sleep(wait, sdk.get());
    }

    /** Waits as {@link #sleep} does; the future is done when this returns. */
    public CompletableFuture<Void> sleepAsync(Duration duration) {
        try {
            sleep(duration);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private record LastAnswer(int nextRetry, boolean stated) {
    }
}
