package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.http.HttpEndpoint;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClientBuilder;

/**
 * The settings a team's production code makes on its {@link BedrockRuntimeAsyncClient}, the client
 * {@code converseStream} needs; the rest stays as the SDK ships it. The run is the client's
 * {@code SdkAsyncHttpClient} ({@link RunAsyncHttpClient}), below the SDK's retry stage, and the SDK's resolved retry
 * strategy is kept with its backoff waited on the run's virtual clock ({@link VirtualBackoff}), as for the
 * synchronous client.
 */
public final class AsyncBuilder
        extends ClientSettings<AsyncBuilder, BedrockRuntimeAsyncClientBuilder, BedrockRuntimeAsyncClient> {

    AsyncBuilder(HttpEndpoint http) {
        super(http);
    }

    @Override
    BedrockRuntimeAsyncClientBuilder sdkBuilder() {
        return BedrockRuntimeAsyncClient.builder();
    }

    @Override
    void bindRun(BedrockRuntimeAsyncClientBuilder b, SdkTimeouts timeouts) {
        b.httpClient(new RunAsyncHttpClient(http, timeouts));
    }

    @Override
    AsyncBuilder self() {
        return this;
    }
}
