package dev.resilienceharness.clients.genai;

import com.google.genai.Client;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.loop.LoopRun;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import okhttp3.OkHttpClient;

/**
 * A real google-genai {@link Client} bound to one scenario run: hand it to the code your loop ships and that code
 * runs unchanged, in-process, on the run's cassettes and fault plan.
 *
 * <pre>{@code
 * Client client = HarnessGenai.client(run);                       // the SDK's defaults: 5 attempts, no timeout
 * Client tuned = HarnessGenai.builder(run).noRetries().timeout(Duration.ofSeconds(30)).build();
 * }</pre>
 *
 * The SDK's OkHttp client is kept as the SDK builds it, its {@code RetryInterceptor} included, and the run is put
 * below it, where the network would be: every attempt, the SDK's own retries included, is one call in the trace. The
 * SDK's retry layer waits with {@code Thread.sleep}, which no clock can replace: a run that meets it is reported as
 * real waiting (the harness interrupts the sleep), and the fix is {@code HttpRetryOptions} with one attempt and no
 * retryable status ({@link Builder#noRetries()}), so that your loop retries on {@code run.sleeper()}: with one attempt
 * alone, google-genai 2.3.0 still sleeps once after a 429 or 5xx before it hands the answer back. No socket is opened, and the API key is a placeholder that never leaves
 * the process.
 */
public final class HarnessGenai {

    /** The API key the client sends; the run answers from cassettes and never looks at it. */
    static final String REPLAY_KEY = "harness-replay";

    private HarnessGenai() {
    }

    /** A client with the SDK's defaults (five attempts, no timeout), bound to {@code run}. */
    public static Client client(LoopRun run) {
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
        private Integer attempts;
        private boolean noRetryableStatus;
        private Duration timeout;
        private Consumer<HttpOptions.Builder> customize = b -> { };

        private Builder(HttpEndpoint http) {
            this.http = http;
        }

        /**
         * The SDK's attempts per request, as {@code HttpRetryOptions.attempts} sets them ({@code 1}: the SDK does not
         * retry, your loop does); unset: the SDK's default, 5.
         */
        public Builder attempts(int attempts) {
            if (attempts < 1) {
                throw new IllegalArgumentException(AdapterMessages.badAttempts(attempts));
            }
            this.attempts = attempts;
            this.noRetryableStatus = false;
            return this;
        }

        /**
         * No retry and no sleep in the SDK: one attempt and no retryable status
         * ({@code HttpRetryOptions.builder().attempts(1).httpStatusCodes(List.of())}). The SDK's retry interceptor
         * sleeps after a retryable status even on its last attempt, so one attempt alone still waits for real once.
         */
        public Builder noRetries() {
            this.attempts = 1;
            this.noRetryableStatus = true;
            return this;
        }

        /** The request timeout, as {@code HttpOptions.timeout} sets it (in milliseconds); unset: none. */
        public Builder timeout(Duration timeout) {
            this.timeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Any other setting of the SDK's {@link HttpOptions.Builder} (headers, API version, ...). The run is bound
         * after the client is built, so nothing here can take the client off the run.
         */
        public Builder customize(Consumer<HttpOptions.Builder> change) {
            this.customize = Objects.requireNonNull(change, "change");
            return this;
        }

        /** The client, bound to the run. */
        public Client build() {
            HttpOptions.Builder options = HttpOptions.builder();
            if (attempts != null) {
                HttpRetryOptions.Builder retry = HttpRetryOptions.builder().attempts(attempts);
                if (noRetryableStatus) {
                    retry.httpStatusCodes(java.util.List.of());
                }
                options.retryOptions(retry.build());
            }
            if (timeout != null) {
                options.timeout(Math.toIntExact(timeout.toMillis()));
            }
            customize.accept(options);
            Client client = Client.builder().apiKey(REPLAY_KEY).httpOptions(options.build()).build();
            bind(client, new RunInterceptor(http));
            return client;
        }
    }

    /**
     * The jitter the SDK's {@code RetryInterceptor} draws, held at its middle: its delay is {@code initialDelay ×
     * expBase^(n-1) × (1 + jitter × (2r - 1))}, so with {@code r} at 0.5 every run waits the SDK's nominal delay
     * (1 s, 2 s, 4 s, ...). Drawn at random, a wait could fall under what the harness notices as a real sleep in one
     * run of forty, and the verdict would change from run to run.
     */
    static final class MiddleOfTheJitter extends java.util.Random {
        private static final long serialVersionUID = 1L;

        @Override
        public double nextDouble() {
            return 0.5;
        }
    }

    /**
     * Appends {@code run} to the interceptors of the OkHttp client the SDK built, and holds its retry interceptor's
     * jitter at its middle ({@link MiddleOfTheJitter}). The SDK offers a custom client
     * ({@code ClientOptions.customHttpClient}), but adds its retry interceptor after that client's own, so a run
     * given there would sit above the retries and see one call where the SDK made five; the SDK's own client, rebuilt
     * with the run last, keeps every setting and interceptor in its order.
     */
    static void bind(Client client, RunInterceptor run) {
        try {
            Field apiClientField = Client.class.getDeclaredField("apiClient");
            apiClientField.setAccessible(true);
            Object apiClient = apiClientField.get(client);
            Field httpField = Class.forName("com.google.genai.ApiClient").getDeclaredField("httpClient");
            httpField.setAccessible(true);
            OkHttpClient built = (OkHttpClient) httpField.get(apiClient);
            for (okhttp3.Interceptor interceptor : built.interceptors()) {
                if (interceptor.getClass().getName().equals("com.google.genai.RetryInterceptor")) {
                    Field random = interceptor.getClass().getDeclaredField("random");
                    random.setAccessible(true);
                    random.set(interceptor, new MiddleOfTheJitter());
                }
            }
            httpField.set(apiClient, built.newBuilder().addInterceptor(run).build());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(AdapterMessages.cannotBind(GenaiSdk.LABEL, e), e);
        }
    }
}
