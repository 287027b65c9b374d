package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.http.HttpEndpoint;
import java.time.Duration;
import java.util.Objects;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.AcquireInitialTokenResponse;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RecordSuccessResponse;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryStrategy;

/**
 * The SDK's own retry strategy with its backoff moved onto the run's virtual clock: every decision (whether to
 * retry, how many attempts, the token bucket, the delay) is the SDK's, but the delay it computes is waited on
 * {@link HttpEndpoint#sleep} as the SDK's wait, and the SDK is told to wait zero. The SDK's retry stage would
 * otherwise sleep the delay with {@code Thread.sleep}. The delay's jitter is held at its middle
 * ({@link MiddleOfTheJitter}), so that every run waits the same.
 */
final class VirtualBackoff implements RetryStrategy {

    private final RetryStrategy sdk;
    private final HttpEndpoint http;

    VirtualBackoff(RetryStrategy sdk, HttpEndpoint http) {
        this.sdk = MiddleOfTheJitter.hold(Objects.requireNonNull(sdk, "sdk"));
        this.http = Objects.requireNonNull(http, "http");
    }

    /** The SDK's strategy this one waits for. */
    RetryStrategy sdk() {
        return sdk;
    }

    @Override
    public AcquireInitialTokenResponse acquireInitialToken(AcquireInitialTokenRequest request) {
        AcquireInitialTokenResponse r = sdk.acquireInitialToken(request);
        return AcquireInitialTokenResponse.create(r.token(), waited(r.delay()));
    }

    @Override
    public RefreshRetryTokenResponse refreshRetryToken(RefreshRetryTokenRequest request) {
        RefreshRetryTokenResponse r = sdk.refreshRetryToken(request);
        return RefreshRetryTokenResponse.create(r.token(), waited(r.delay()));
    }

    private Duration waited(Duration delay) {
        if (delay != null && !delay.isZero() && !delay.isNegative()) {
            http.sleep(delay, BedrockSdk.LABEL);
        }
        return Duration.ZERO;
    }

    @Override
    public RecordSuccessResponse recordSuccess(RecordSuccessRequest request) {
        return sdk.recordSuccess(request);
    }

    @Override
    public int maxAttempts() {
        return sdk.maxAttempts();
    }

    /** The strategy is complete as it is: the client must not rebuild it from its defaults, losing the clock. */
    @Override
    public boolean useClientDefaults() {
        return false;
    }

    @Override
    public Builder<?, ?> toBuilder() {
        return sdk.toBuilder();
    }

    @Override
    public void close() {
        sdk.close();
    }
}
