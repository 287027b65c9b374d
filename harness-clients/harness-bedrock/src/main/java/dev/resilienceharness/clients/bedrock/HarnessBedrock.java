package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.loop.LoopRun;
import java.util.Objects;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClientBuilder;

/**
 * A real AWS SDK {@link BedrockRuntimeClient} bound to one scenario run: hand it to the code your loop ships and that
 * code runs unchanged, in-process, on the run's cassettes and fault plan.
 *
 * <pre>{@code
 * BedrockRuntimeClient client = HarnessBedrock.client(run);             // the SDK's defaults: standard mode, 2 retries
 * BedrockRuntimeClient tuned = HarnessBedrock.builder(run).noRetries().build();
 * BedrockRuntimeAsyncClient streaming = HarnessBedrock.asyncBuilder(run).noRetries().build(); // converseStream
 * }</pre>
 *
 * The run is the client's {@code SdkHttpClient} ({@code httpClient(...)}), below the SDK's retry stage: every
 * attempt, the SDK's own retries included, is one call in the trace. The SDK's retry strategy is kept, decisions,
 * token bucket and backoff included, but its backoff is waited on the run's virtual clock as the SDK's wait (the SDK
 * would sleep it with {@code Thread.sleep}), so a default client's hidden retries fail the build by the calls and the
 * wait they cost, with the fix named: {@code RetryMode}/{@code retryStrategy} with one attempt
 * ({@link Builder#noRetries()}). Credentials and region are placeholders that never leave the process.
 */
public final class HarnessBedrock {

    /** The credentials the client signs with; the run answers from cassettes and never checks a signature. */
    static final String REPLAY_KEY = "harness-replay";
    /** The region the client is built for; its endpoint is never reached. */
    static final Region REGION = Region.US_EAST_1;

    private HarnessBedrock() {
    }

    /** A client with the SDK's defaults (its default retry mode in 2.59.1: standard, 2 retries), bound to {@code run}. */
    public static BedrockRuntimeClient client(LoopRun run) {
        return builder(run).build();
    }

    /** A builder for a client bound to {@code run}, for the settings your production code makes. */
    public static Builder builder(LoopRun run) {
        return new Builder(Objects.requireNonNull(run, "run").http());
    }

    /** A builder for a client answered by {@code http}: the run's endpoint, or a test's. */
    static Builder builder(HttpEndpoint http) {
        return new Builder(Objects.requireNonNull(http, "http"));
    }

    /**
     * An async client with the SDK's defaults, bound to {@code run}: the client {@code converseStream} needs; its
     * {@code converse} works through it too.
     */
    public static software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient asyncClient(LoopRun run) {
        return asyncBuilder(run).build();
    }

    /** A builder for an async client bound to {@code run}, for the settings your production code makes. */
    public static AsyncBuilder asyncBuilder(LoopRun run) {
        return new AsyncBuilder(Objects.requireNonNull(run, "run").http());
    }

    /** A builder for an async client answered by {@code http}: the run's endpoint, or a test's. */
    static AsyncBuilder asyncBuilder(HttpEndpoint http) {
        return new AsyncBuilder(http);
    }

    /** The settings a team's production code makes on its client; the rest stays as the SDK ships it. */
    public static final class Builder
            extends ClientSettings<Builder, BedrockRuntimeClientBuilder, BedrockRuntimeClient> {

        private Builder(HttpEndpoint http) {
            super(http);
        }

        @Override
        BedrockRuntimeClientBuilder sdkBuilder() {
            return BedrockRuntimeClient.builder();
        }

        @Override
        void bindRun(BedrockRuntimeClientBuilder b, SdkTimeouts timeouts) {
            b.httpClient(new RunHttpClient(http, timeouts));
        }

        @Override
        Builder self() {
            return this;
        }
    }
}
