package dev.resilienceharness.http;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * An SDK's retry waits on a run's virtual clock, as every adapter's sleeper makes them: each wait counts towards
 * {@code max_total_wait} and the timeline marks it as the SDK's, and no real time passes.
 *
 * <p>The blocking and the asynchronous wait behave alike: both wait at once, on the calling thread, so the run's
 * order of calls and waits is the order the SDK made them. A wait the run refuses (a negative duration) throws from
 * {@link #sleep} and fails the future of {@link #sleepAsync}; the crash of the run's process ({@code ProcessRecycled},
 * an {@link Error}) is thrown from both, as it is from every call, so that no SDK can hold it in a future.
 */
public final class SdkSleeper {

    private final HttpEndpoint endpoint;
    private final Supplier<String> sdk;

    /** @param sdk the SDK the waits are marked with, read at each wait (an SDK may name its version late) */
    public SdkSleeper(HttpEndpoint endpoint, Supplier<String> sdk) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.sdk = Objects.requireNonNull(sdk, "sdk");
    }

    /** Waits {@code duration} on the run's virtual clock. */
    public void sleep(Duration duration) {
        endpoint.sleep(duration, sdk.get());
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
}
