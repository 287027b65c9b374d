package dev.resilienceharness.clients.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.OpenAIClientImpl;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.openai.core.ClientOptions;
import com.openai.core.ObjectMappers;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.loop.LoopRun;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Real openai-java clients bound to one scenario run: the client a team's production code takes, with the SDK's own
 * defaults (two retries, its backoff and jitter, its 8 s cap on a server-stated delay), whose every HTTP attempt is
 * one call of the run and whose retry waits and clock are the run's virtual clock.
 *
 * <pre>{@code
 * public List<Outcome> run(LoopRun run) {
 *     OpenAIClient client = HarnessOpenAi.client(run);             // as OpenAIOkHttpClient.builder() builds it
 *     TriageAgent agent = new TriageAgent(client);                 // production code, unchanged
 *     for (String op : run.ops()) {
 *         try (var scope = run.op(op)) { ... agent.step(op) ... }  // the SDK's calls count for this op
 *     }
 * }
 * }</pre>
 */
public final class HarnessOpenAi {

    /** How the trace names this SDK; the version comes from the SDK's {@code X-Stainless-Package-Version}. */
    static final String SDK = "openai-java";

    /**
     * The SDK's own mapper, built once: building it (modules, Kotlin reflection) costs far more than a scenario run, and
     * a configured mapper is safe to share. A team that sets its own with {@link Builder#customize} keeps it.
     */
    private static final JsonMapper MAPPER = ObjectMappers.jsonMapper();

    /**
     * Whether the SDK has checked the classpath's Jackson once in this JVM: the answer cannot change, and the check
     * costs a tenth of a scenario run.
     */
    private static final AtomicBoolean JACKSON_CHECKED = new AtomicBoolean();

    private HarnessOpenAi() {
    }

    /** A client with openai-java's defaults, bound to {@code run}. */
    public static OpenAIClient client(LoopRun run) {
        return builder(run).build();
    }

    /** A builder of such a client, for what the team's production code sets (retries, timeouts). */
    public static Builder builder(LoopRun run) {
        return new Builder(run.http());
    }

    /** Builds an openai-java client whose HTTP client, sleeper and clock are a run's. */
    public static final class Builder {

        private final ClientOptions.Builder options;
        private final HttpEndpoint endpoint;
        private final RunHttpClient http;

        private Builder(HttpEndpoint endpoint) {
            this.endpoint = endpoint;
            this.http = RunHttpClient.openAiJava(endpoint);
            this.options = ClientOptions.builder().baseUrl("https://api.openai.com/v1").apiKey("harness-replay")
                    .jsonMapper(MAPPER).checkJacksonVersionCompatibility(!JACKSON_CHECKED.get());
            bind();
        }

        private void bind() {
            options.httpClient(http).sleeper(http.sleeper()).clock(endpoint.clock());
        }

        /** As {@code OpenAIOkHttpClient.Builder.maxRetries}: 0 leaves every retry to the team's loop. */
        public Builder maxRetries(int maxRetries) {
            options.maxRetries(maxRetries);
            return this;
        }

        /** As {@code OpenAIOkHttpClient.Builder.timeout}: how long one attempt may take. */
        public Builder timeout(Duration timeout) {
            options.timeout(Objects.requireNonNull(timeout, "timeout"));
            return this;
        }

        /** Any other client option the production code sets; the HTTP client, sleeper and clock stay the run's. */
        public Builder customize(Consumer<ClientOptions.Builder> change) {
            change.accept(options);
            return this;
        }

        public OpenAIClient build() {
            // Whatever customize changed, the run's HTTP client, sleeper and clock stay: nothing may reach a socket.
            bind();
            OpenAIClient client = new OpenAIClientImpl(options.build());
            JACKSON_CHECKED.set(true);
            return client;
        }
    }
}
