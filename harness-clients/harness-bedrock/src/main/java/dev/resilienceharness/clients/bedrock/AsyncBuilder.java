package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.http.HttpEndpoint;
import java.util.Objects;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClientBuilder;

/**
 * The settings a team's production code makes on its {@link BedrockRuntimeAsyncClient}, the client
 * {@code converseStream} needs; the rest stays as the SDK ships it. The run is the client's
 * {@code SdkAsyncHttpClient} ({@link RunAsyncHttpClient}), below the SDK's retry stage, and the SDK's resolved retry
 * strategy is kept with its backoff waited on the run's virtual clock ({@link VirtualBackoff}), as for the
 * synchronous client.
 */
public final class AsyncBuilder {

    private final HttpEndpoint http;
    private RetryMode mode;
    private boolean noRetries;
    private Consumer<BedrockRuntimeAsyncClientBuilder> customize = b -> { };

    AsyncBuilder(HttpEndpoint http) {
        this.http = Objects.requireNonNull(http, "http");
    }

    /** The SDK's retry mode, as {@code overrideConfiguration(o -> o.retryStrategy(mode))} sets it. */
    public AsyncBuilder retryMode(RetryMode mode) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.noRetries = false;
        return this;
    }

    /**
     * No retry in the SDK ({@code retryStrategy(AwsRetryStrategy.doNotRetry())}, one attempt): your loop retries,
     * waiting on {@code run.sleeper()}.
     */
    public AsyncBuilder noRetries() {
        this.noRetries = true;
        return this;
    }

    /**
     * Any other setting of the SDK's {@link BedrockRuntimeAsyncClientBuilder}. The run is bound after it, so nothing
     * here can take the client off the run.
     */
    public AsyncBuilder customize(Consumer<BedrockRuntimeAsyncClientBuilder> change) {
        this.customize = Objects.requireNonNull(change, "change");
        return this;
    }

    /** The client, bound to the run. */
    public BedrockRuntimeAsyncClient build() {
        BedrockRuntimeAsyncClientBuilder b = BedrockRuntimeAsyncClient.builder().region(HarnessBedrock.REGION)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(HarnessBedrock.REPLAY_KEY, HarnessBedrock.REPLAY_KEY)));
        customize.accept(b);
        b.httpClient(new RunAsyncHttpClient(http, SdkTimeouts.of(b.overrideConfiguration())));
        if (noRetries) {
            return b.overrideConfiguration(b.overrideConfiguration().toBuilder()
                    .retryStrategy(AwsRetryStrategy.doNotRetry()).build()).build();
        }
        if (mode != null) {
            b.overrideConfiguration(b.overrideConfiguration().toBuilder().retryStrategy(mode).build());
        }
        // The SDK resolves its strategy for these settings (mode, profile, environment) while it builds the client;
        // the plugin, called once it has, keeps that strategy with its backoff on the run's clock.
        return b.addPlugin(new VirtualBackoffPlugin(http)).build();
    }
}
