package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.http.HttpEndpoint;
import java.util.Objects;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.retry.RetryMode;

/**
 * What the synchronous and the async builder share: the settings a team's production code makes on its client (the
 * retry mode, no retries, anything else of the SDK's builder), and how a client is built with them and bound to the
 * run. The run is the client's HTTP client, set after the team's settings so that nothing can take the client off the
 * run; the SDK resolves its retry strategy for those settings (mode, profile, environment) while it builds the
 * client, and {@link VirtualBackoffPlugin}, called once it has, keeps that strategy with its backoff on the run's
 * clock.
 *
 * @param <S> the builder itself, returned by each setting
 * @param <B> the SDK's client builder
 * @param <C> the SDK's client
 */
abstract class ClientSettings<S extends ClientSettings<S, B, C>, B extends AwsClientBuilder<B, C>, C> {

    final HttpEndpoint http;
    private RetryMode mode;
    private boolean noRetries;
    private Consumer<B> customize = b -> { };

    ClientSettings(HttpEndpoint http) {
        this.http = Objects.requireNonNull(http, "http");
    }

    /** The SDK's retry mode, as {@code overrideConfiguration(o -> o.retryStrategy(mode))} sets it. */
    public S retryMode(RetryMode mode) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.noRetries = false;
        return self();
    }

    /**
     * No retry in the SDK ({@code retryStrategy(AwsRetryStrategy.doNotRetry())}, one attempt): your loop retries,
     * waiting on {@code run.sleeper()}.
     */
    public S noRetries() {
        this.noRetries = true;
        return self();
    }

    /**
     * Any other setting of the SDK's client builder. The run is bound after it, so nothing here can take the client
     * off the run.
     */
    public S customize(Consumer<B> change) {
        this.customize = Objects.requireNonNull(change, "change");
        return self();
    }

    /** The client, bound to the run. */
    public C build() {
        B b = sdkBuilder().region(HarnessBedrock.REGION).credentialsProvider(StaticCredentialsProvider.create(
                AwsBasicCredentials.create(HarnessBedrock.REPLAY_KEY, HarnessBedrock.REPLAY_KEY)));
        customize.accept(b);
        bindRun(b, SdkTimeouts.of(b.overrideConfiguration()));
        if (noRetries) {
            return b.overrideConfiguration(b.overrideConfiguration().toBuilder()
                    .retryStrategy(AwsRetryStrategy.doNotRetry()).build()).build();
        }
        if (mode != null) {
            b.overrideConfiguration(b.overrideConfiguration().toBuilder().retryStrategy(mode).build());
        }
        return b.addPlugin(new VirtualBackoffPlugin(http)).build();
    }

    /** A new builder of the SDK's client, with the SDK's defaults. */
    abstract B sdkBuilder();

    /** Makes the run {@code b}'s HTTP client, under the SDK's {@code timeouts}. */
    abstract void bindRun(B b, SdkTimeouts timeouts);

    abstract S self();
}
