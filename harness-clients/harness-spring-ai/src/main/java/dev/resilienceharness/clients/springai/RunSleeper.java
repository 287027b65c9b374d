package dev.resilienceharness.clients.springai;

import com.openai.core.Sleeper;
import dev.resilienceharness.http.HttpEndpoint;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** openai-java's retry waits on a scenario run's virtual clock, marked as the SDK's. */
final class RunSleeper implements Sleeper {

    private final HttpEndpoint endpoint;
    private final String sdk;

    RunSleeper(HttpEndpoint endpoint, String sdk) {
        this.endpoint = endpoint;
        this.sdk = sdk;
    }

    @Override
    public void sleep(Duration duration) {
        endpoint.sleep(duration, sdk);
    }

    @Override
    public CompletableFuture<Void> sleepAsync(Duration duration) {
        // Virtual time passes at once, so the wait is over when this returns.
        try {
            endpoint.sleep(duration, sdk);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
    }
}
