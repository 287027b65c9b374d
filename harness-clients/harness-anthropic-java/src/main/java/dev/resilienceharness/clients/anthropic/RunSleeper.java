package dev.resilienceharness.clients.anthropic;

import com.anthropic.core.Sleeper;
import dev.resilienceharness.http.HttpEndpoint;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * anthropic-java's {@link Sleeper} on a scenario run's virtual clock: every wait of the SDK's retry layer (its
 * backoff, a {@code Retry-After} it honours) counts towards {@code max_total_wait} and is marked as the SDK's, and no
 * real time passes.
 */
final class RunSleeper implements Sleeper {

    private final HttpEndpoint http;

    RunSleeper(HttpEndpoint http) {
        this.http = Objects.requireNonNull(http, "http");
    }

    @Override
    public void sleep(Duration duration) {
        http.sleep(duration, AnthropicSdk.LABEL);
    }

    @Override
    public CompletableFuture<Void> sleepAsync(Duration duration) {
        try {
            sleep(duration);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
        // Nothing to release: the clock belongs to the run.
    }
}
