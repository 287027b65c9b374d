package dev.resilienceharness.clients.anthropic;

import com.anthropic.backends.Backend;
import com.anthropic.client.AnthropicClient;
import com.anthropic.client.AnthropicClientImpl;
import com.anthropic.core.ClientOptions;
import com.anthropic.core.Timeout;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.loop.LoopRun;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A real anthropic-java {@link AnthropicClient} bound to one scenario run: hand it to the code your loop ships and
 * that code runs unchanged, in-process, on the run's cassettes, fault plan and virtual clock.
 *
 * <pre>{@code
 * AnthropicClient client = HarnessAnthropic.client(run);          // the SDK's defaults: maxRetries 2
 * AnthropicClient tuned = HarnessAnthropic.builder(run).maxRetries(0).build();
 * AnthropicClient bedrock = HarnessAnthropic.builder(run).backend(HarnessAnthropicBedrock.backend()).build();
 * AnthropicClient vertex = HarnessAnthropic.builder(run)
 *         .backend(HarnessAnthropicVertex.backend("my-project", "us-east5")).build();
 * }</pre>
 *
 * The SDK's HTTP client is the run ({@link HttpEndpoint#exchange}: every attempt, the SDK's own retries included, is
 * one call in the trace), its sleeper waits on the run's virtual clock, and its clock is the run's. Everything else
 * is as the SDK ships it: its retry layer, its backoff, its {@code Retry-After} handling. No socket is opened, and
 * the API key is a placeholder that never leaves the process. With a {@link Builder#backend backend} (Amazon
 * Bedrock's, Google Vertex AI's), the client talks to the run as it would to that cloud: the backend's paths, body and
 * authorization, with placeholder credentials.
 */
public final class HarnessAnthropic {

    /** The API key the client sends; the run answers from cassettes and never looks at it. */
    static final String REPLAY_KEY = "harness-replay";

    private HarnessAnthropic() {
    }

    /** A client with the SDK's defaults (two retries of its own, its default timeouts), bound to {@code run}. */
    public static AnthropicClient client(LoopRun run) {
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

    /** The settings a team's production code makes on its client; the rest stays as the SDK ships it. */
    public static final class Builder {

        private final HttpEndpoint http;
        private Integer maxRetries;
        private Timeout timeout;
        private Consumer<ClientOptions.Builder> customize = b -> { };
        private Backend backend;

        private Builder(HttpEndpoint http) {
            this.http = http;
        }

        /** The SDK's own retries per request ({@code 0}: none, your loop retries); unset: the SDK's default, 2. */
        public Builder maxRetries(int maxRetries) {
            if (maxRetries < 0) {
                throw new IllegalArgumentException(AdapterMessages.negativeMaxRetries(maxRetries));
            }
            this.maxRetries = maxRetries;
            return this;
        }

        /** The request timeout, as {@code ClientOptions.Builder.timeout(Duration)} sets it. */
        public Builder timeout(Duration timeout) {
            return timeout(Timeout.builder().request(Objects.requireNonNull(timeout, "timeout")).build());
        }

        /** The SDK's timeouts (connect, read, write, request). */
        public Builder timeout(Timeout timeout) {
            this.timeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * The backend the client talks through, as {@code AnthropicOkHttpClient.builder().backend(...)} sets it: each
         * request is prepared and authorized by it (its path, its body) and each answer read through it. Give it
         * placeholder credentials ({@link HarnessAnthropicBedrock#backend()},
         * {@link HarnessAnthropicVertex#backend(String, String)}): it authorizes in-process, and what it puts in the
         * request never leaves the process. Unset: Anthropic's own API, with a placeholder API key.
         */
        public Builder backend(Backend backend) {
            this.backend = Objects.requireNonNull(backend, "backend");
            return this;
        }

        /**
         * Any other setting of the SDK's {@link ClientOptions.Builder} (headers, response validation, ...). The HTTP
         * client, sleeper and clock are the run's and are set after this, so that nothing here can take the client
         * off the run.
         */
        public Builder customize(Consumer<ClientOptions.Builder> change) {
            this.customize = Objects.requireNonNull(change, "change");
            return this;
        }

        /** The client, bound to the run. */
        public AnthropicClient build() {
            ClientOptions.Builder b = ClientOptions.builder();
            if (backend == null) {
                // The SDK's key setting (a backend) is Kotlin-only; the header is what it would send.
                b.putHeader("x-api-key", REPLAY_KEY);
            } else {
                // As AnthropicOkHttpClient sets it for a backend (its other settings are the SDK's to make).
                b.baseUrl(backend.baseUrl());
            }
            if (maxRetries != null) {
                b.maxRetries(maxRetries);
            }
            if (timeout != null) {
                b.timeout(timeout);
            }
            customize.accept(b);
            RunHttpClient client = new RunHttpClient(http, backend);
            b.httpClient(client).sleeper(client.sleeper()).clock(http.clock());
            return new AnthropicClientImpl(b.build());
        }
    }
}
