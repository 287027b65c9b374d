package dev.resilienceharness.clients.openai;

import com.openai.core.Sleeper;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.http.SdkSleeper;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * openai-java's retry waits, blocking and asynchronous, on a scenario run's virtual clock and marked as the SDK's: the
 * {@link SdkSleeper} contract in openai-java's {@link Sleeper} SPI, for this adapter and the frameworks built on it.
 */
public final class RunSleeper implements Sleeper {

    private final SdkSleeper waits;

    /**
     * A sleeper that waits every duration as the SDK asks; {@link RunHttpClient#sleeper()} gives one that waits the
     * SDK's jittered backoff at its nominal value.
     *
     * @param sdk how the run's timeline names the SDK on each wait
     */
    public RunSleeper(HttpEndpoint endpoint, Supplier<String> sdk) {
        this(new SdkSleeper(endpoint, sdk));
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
