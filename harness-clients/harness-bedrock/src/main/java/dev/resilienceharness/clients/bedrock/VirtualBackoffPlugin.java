package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.http.HttpEndpoint;
import java.util.Objects;
import java.util.function.Consumer;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.core.SdkServiceClientConfiguration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.retries.api.RetryStrategy;

/**
 * Puts the retry strategy the SDK resolved for a client's settings on the run's clock ({@link VirtualBackoff}), while
 * the client is built. The SDK calls a client's plugins once its configuration is final, its retry strategy included:
 * the mode from {@code overrideConfiguration}, else {@code AWS_RETRY_MODE}, {@code aws.retryMode} or the profile's
 * {@code retry_mode}, else the defaults mode's, made by {@code AwsRetryStrategy.forRetryMode} with the client's
 * profile file (aws-core 2.59.1, {@code AwsDefaultClientBuilder.resolveAwsRetryStrategy}). Reading it here spares
 * building a second client only to read it off.
 */
final class VirtualBackoffPlugin implements SdkPlugin {

    private final HttpEndpoint http;

    VirtualBackoffPlugin(HttpEndpoint http) {
        this.http = Objects.requireNonNull(http, "http");
    }

    @Override
    public void configureClient(SdkServiceClientConfiguration.Builder config) {
        ClientOverrideConfiguration o = config.overrideConfiguration();
        RetryStrategy resolved = resolved(o);
        config.overrideConfiguration(o.toBuilder().retryStrategy(new VirtualBackoff(resolved, http)).build());
    }

    /**
     * The strategy the client would run with. A plugin added before this one may have left a retry mode or a
     * configurator for the SDK to apply after the plugins ({@code updateRetryStrategyClientConfiguration} in the
     * generated builder); this one applies it as the SDK would, since setting a strategy clears both.
     */
    static RetryStrategy resolved(ClientOverrideConfiguration o) {
        if (o.retryMode().isPresent()) {
            return AwsRetryStrategy.forRetryMode(o.retryMode().get(), o.defaultProfileFileSupplier().orElse(null),
                    o.defaultProfileName().orElse(null));
        }
        if (o.retryStrategyConfigurator().isPresent()) {
            RetryMode mode = RetryMode.resolver().profileFile(o.defaultProfileFileSupplier().orElse(null))
                    .profileName(o.defaultProfileName().orElse(null)).resolve();
            RetryStrategy.Builder<?, ?> b = AwsRetryStrategy.forRetryMode(mode,
                    o.defaultProfileFileSupplier().orElse(null), o.defaultProfileName().orElse(null)).toBuilder();
            Consumer<RetryStrategy.Builder<?, ?>> configurator = o.retryStrategyConfigurator().get();
            configurator.accept(b);
            return b.build();
        }
        return o.retryStrategy().orElseThrow(() -> new IllegalStateException(
                "the SDK resolved no retry strategy for the client"));
    }
}
