package dev.resilienceharness.clients.anthropic;

import com.anthropic.core.Sleeper;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.http.SdkSleeper;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * anthropic-java's {@link Sleeper} on a scenario run's virtual clock ({@link SdkSleeper}): every wait of the SDK's
 * retry layer (its backoff, a {@code Retry-After} it honours) counts towards {@code max_total_wait} and is marked as
 * the SDK's, and no real time passes.
 */
final class RunSleeper implements Sleeper {

    private final SdkSleeper waits;

    /** A sleeper that waits every duration as the SDK asks; {@link RunHttpClient#sleeper()} takes out the jitter. */
    RunSleeper(HttpEndpoint http) {
        this(new SdkSleeper(http, () -> AnthropicSdk.LABEL));
    }

    RunSleeper(SdkSleeper waits) {
        this.waits = waits;
    }

    @Override
    public void sleep(Duration duration) {
        waits.sleep(duration);
    }

    @Override
    public CompletableFuture<Void> sleepAsync(Duration duration) {
        return waits.sleepAsync(duration);
    }

    @Override
    public void close() {
        // Nothing to release: the clock belongs to the run.
    }
}
