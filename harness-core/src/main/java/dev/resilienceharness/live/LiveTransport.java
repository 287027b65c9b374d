package dev.resilienceharness.live;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.config.Provider;
import dev.resilienceharness.http.AnthropicCloud;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.BedrockChunks;
import dev.resilienceharness.http.BedrockStreams;
import dev.resilienceharness.http.EventStreamFrames;
import dev.resilienceharness.http.HttpForwarder;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.http.StreamRecording;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.ToolCallSchema;
import dev.resilienceharness.transport.Transport;
import dev.resilienceharness.transport.TransientError;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Calls an OpenAI-compatible provider for real: {@code POST {base_url}/chat/completions} with the key from the
 * environment as a Bearer token. 429 is a quota rejection ({@code retry-after-ms} wins over {@code Retry-After});
 * 408, 409, 5xx, timeouts and dropped connections are transient; a 200 whose tool-call JSON breaks its schema is a
 * schema failure (in {@link #call}); anything else is an {@link UnexpectedStatus}. A {@code "stream": true}
 * request is read as server-sent events and assembled into one {@code chat.completion}, its first-token latency
 * measured from the send. The only class that reads the wall clock. Thread-safe.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class LiveTransport implements Transport, ProviderCall {

    /** How long to wait for a connection. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long a whole call may take, stream included. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(120);
    /** A body larger than this is not read. */
    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

    /** The Anthropic API version sent with a Messages request, the one its API documents as current. */
    public static final String ANTHROPIC_VERSION = "2023-06-01";

    private final URI endpoint;
    private final URI base;
    private final String authorization;
    private final java.util.function.Supplier<BedrockAuth> bedrock;
    private final java.util.function.Supplier<VertexLocation> vertex;
    private final HttpClient client;
    private final Duration requestTimeout;
    private final ToolCallSchema schemas = new ToolCallSchema();

    private LiveTransport(URI base, String authorization, java.util.function.Supplier<BedrockAuth> bedrock,
            java.util.function.Supplier<VertexLocation> vertex, Duration connectTimeout, Duration requestTimeout) {
        this.base = base;
        this.endpoint = endpoint(base, ApiShape.CHAT_COMPLETIONS);
        this.authorization = authorization;
        this.bedrock = bedrock;
        this.vertex = vertex;
        this.requestTimeout = requestTimeout;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER) // a redirect must not carry the key elsewhere
                .build();
    }

    /** A transport for {@code provider} with the default timeouts. */
    public static LiveTransport connect(Provider provider, Function<String, String> env) throws MissingApiKey {
        return connect(provider, env, DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT);
    }

    /**
     * A transport for {@code provider}. The key is looked up here, once, so a missing one is reported before
     * anything is sent; a provider without {@code api_key_env} is called without a key.
     *
     * @param env looks up an environment variable by name ({@code System::getenv} outside tests)
     * @throws MissingApiKey when the variable {@code provider.api_key_env} names is unset or blank
     */
    public static LiveTransport connect(Provider provider, Function<String, String> env, Duration connectTimeout,
            Duration requestTimeout) throws MissingApiKey {
        Objects.requireNonNull(provider, "provider");
        String key = key(provider, env);
        return new LiveTransport(provider.baseUrl(), key == null ? null : "Bearer " + key,
                bedrockAuth(provider.baseUrl(), key, env), memoized(() -> VertexLocation.of(provider.baseUrl(), env)),
                connectTimeout, requestTimeout);
    }

    /**
     * Where a team loop's SDK requests go when they are recorded: {@code provider.base_url}, with the key from the
     * environment in the header the SDK used. A Bedrock request is re-signed with SigV4 when the provider names no key
     * and the environment holds AWS credentials (see {@link BedrockAuth}), and is not sent when it holds neither.
     *
     * @throws MissingApiKey when the variable {@code provider.api_key_env} names is unset or blank
     */
    public static HttpForwarder forwarder(Provider provider, Function<String, String> env, Duration requestTimeout)
            throws MissingApiKey {
        String key = key(provider, env);
        LiveHttp live = LiveHttp.to(provider.baseUrl(), key, requestTimeout);
        if (key != null) {
            return live; // a Bedrock API key goes as a Bearer token
        }
        java.util.function.Supplier<BedrockAuth> bedrock = bedrockAuth(provider.baseUrl(), null, env);
        java.util.function.Supplier<LiveHttp> signing = memoized(() -> LiveHttp.signing(provider.baseUrl(),
                bedrock.get().signer(), requestTimeout));
        return attempt -> {
            if (ApiShape.forPath("/" + attempt.path()) != ApiShape.BEDROCK) {
                return live.send(attempt);
            }
            if (bedrock.get().refusal() != null) {
                throw new IOException(bedrock.get().refusal()); // before any byte: an unsigned request is a 403
            }
            return signing.get().send(attempt);
        };
    }

    /** How Bedrock requests are authorized, chosen at the first one: other providers' runs read no AWS variable. */
    private static java.util.function.Supplier<BedrockAuth> bedrockAuth(URI base, String key,
            Function<String, String> env) {
        return memoized(() -> BedrockAuth.of(base, key, env));
    }

    private static <T> java.util.function.Supplier<T> memoized(java.util.function.Supplier<T> make) {
        return new java.util.function.Supplier<>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = make.get();
                }
                return value;
            }
        };
    }

    /** The key {@code provider.api_key_env} names, or {@code null} when the provider takes none. */
    private static String key(Provider provider, Function<String, String> env) throws MissingApiKey {
        if (provider.apiKeyEnv() == null) {
            return null;
        }
        String key = env.apply(provider.apiKeyEnv());
        if (key == null || key.isBlank()) {
            throw new MissingApiKey(provider.apiKeyEnv());
        }
        return key.strip();
    }

    /** {@code {base_url}/chat/completions}, whether or not the base URL ends with a slash. */
    static URI endpoint(URI baseUrl) {
        return endpoint(baseUrl, ApiShape.CHAT_COMPLETIONS);
    }

    /** {@code {base_url}/} followed by the shape's resource: {@code chat/completions}, {@code responses}, ... */
    static URI endpoint(URI baseUrl, ApiShape shape) {
        return endpoint(baseUrl, shape.resource());
    }

    private static URI endpoint(URI baseUrl, String resource) {
        String base = baseUrl.toString();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + "/" + resource);
    }

    /** Where requests go. */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * Sends {@code payload} as a loop's transport call: the op is the payload's {@code op} field when it has one.
     * A recorded tool call that breaks its schema is a {@link BadToolCall}; an unexpected status is an
     * {@link IllegalStateException} (a configuration error, not a failure to degrade from); a provider that
     * cannot be reached is transient.
     */
    @Override
    public Reply call(ObjectNode payload) throws CallFailure {
        String op = payload.path("op").isString() ? payload.get("op").asString() : "chat.completions";
        CassetteStore.Recorded recorded;
        try {
            recorded = send(op, payload);
        } catch (UnexpectedStatus e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (IOException e) {
            throw TransientError.timeout();
        }
        String problem = schemas.problem(payload, recorded.response());
        if (problem != null) {
            throw new BadToolCall(problem);
        }
        Timing t = recorded.timing();
        return new Reply(recorded.response(), t == null || t.firstTokenMs() == null ? OptionalLong.empty()
                : OptionalLong.of(t.firstTokenMs()));
    }

    @Override
    public CassetteStore.Recorded send(String op, ObjectNode request)
            throws CallFailure, UnexpectedStatus, IOException {
        return send(op, request, ApiShape.CHAT_COMPLETIONS);
    }

    /**
     * Sends {@code request} to {@code {base_url}/<shape's resource>}: a Messages request carries the key as
     * {@code x-api-key} with {@code anthropic-version}, a Gemini request as {@code x-goog-api-key} (posted to
     * {@code models/{model}:generateContent}, or {@code :streamGenerateContent?alt=sse}, without the {@code model} and
     * {@code stream} its path carries), a Bedrock request to {@code model/{modelId}/converse} without the
     * {@code modelId} its path carries, with a Bedrock API key as a Bearer token or signed with SigV4 (see
     * {@link BedrockAuth}), the others as a Bearer token. A Messages request made through anthropic-java's Bedrock or
     * Vertex AI backend ({@link AnthropicCloud}) goes to that cloud's path, as the backend sends it: to
     * {@code model/{modelId}/invoke} authorized as a Bedrock request is, or to
     * {@code projects/{p}/locations/{l}/publishers/anthropic/models/{model}:rawPredict} (see {@link VertexLocation})
     * with the key as a Bearer token, its body without the {@code model} the path carries and with its
     * {@code anthropic_version}. A streaming request is recorded with every event (see {@link StreamRecording}), a
     * Bedrock stream's events read from its AWS event-stream frames.
     */
    @Override
    public CassetteStore.Recorded send(String op, ObjectNode request, ApiShape shape)
            throws CallFailure, UnexpectedStatus, IOException {
        AnthropicCloud cloud = shape == ApiShape.MESSAGES ? AnthropicCloud.of(request) : null;
        boolean converse = shape == ApiShape.BEDROCK;
        boolean stream = request.path("stream").asBoolean(false);
        BedrockAuth auth = converse || cloud == AnthropicCloud.BEDROCK ? bedrock.get() : null;
        if (auth != null && auth.refusal() != null) {
            throw new IOException(auth.refusal()); // before any byte: an unsigned request is a 403
        }
        VertexLocation location = cloud == AnthropicCloud.VERTEX ? vertex.get() : null;
        if (location != null && location.refusal() != null) {
            throw new IOException(location.refusal());
        }
        boolean gemini = shape == ApiShape.GEMINI;
        URI endpoint = gemini ? endpoint(base, ApiShape.geminiPath(request))
                : converse ? endpoint(base, ApiShape.bedrockPath(request))
                : cloud != null ? endpoint(base, (location == null ? "" : location.prefix()) + cloud.path(request))
                : endpoint(base, shape);
        ObjectNode sent = gemini ? ApiShape.geminiBody(request) : converse ? ApiShape.bedrockBody(request)
                : cloud != null ? cloud.body(request) : request;
        byte[] bytes = Json.compact(sent).getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder http = HttpRequest.newBuilder(endpoint)
                .timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header("Accept", !stream ? "application/json" : converse || cloud == AnthropicCloud.BEDROCK
                        ? EventStreamFrames.CONTENT_TYPE : "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
        if (auth != null && auth.signer() != null) {
            auth.signer().sign("POST", endpoint, java.util.Map.of(), bytes, java.time.Instant.now(), true)
                    .forEach(http::header);
        } else if (cloud != null) {
            if (authorization != null) {
                http.header("Authorization", authorization); // a Bedrock API key, or a Google access token
            }
        } else if (gemini) {
            if (authorization != null) {
                http.header("x-goog-api-key", authorization.substring("Bearer ".length()));
            }
        } else if (shape == ApiShape.MESSAGES) {
            http.header("anthropic-version", ANTHROPIC_VERSION);
            if (authorization != null) {
                http.header("x-api-key", authorization.substring("Bearer ".length()));
            }
        } else if (authorization != null) {
            http.header("Authorization", authorization);
        }
        long start = System.nanoTime();
        HttpResponse<InputStream> response;
        try {
            response = client.send(http.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            throw TransientError.timeout();
        } catch (ConnectException e) {
            throw new IOException(LiveMessages.cannotConnect(op, endpoint.toString(), LiveMessages.reason(e)),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while calling the provider for op '" + op + "'");
        } catch (IOException e) {
            throw TransientError.timeout(); // reset or closed before the answer began
        }
        // The client's timeout ends with the headers; this bounds reading the body (or stream) too.
        InputStream body = response.body();
        long left = Math.max(1, requestTimeout.toNanos() - (System.nanoTime() - start));
        CompletableFuture.delayedExecutor(left, TimeUnit.NANOSECONDS).execute(() -> closeQuietly(body));
        try (body) {
            int status = response.statusCode();
            if (status == 200 && stream && isEventStream(response.headers())) {
                return readStream(op, body, start, shape);
            }
            if (status == 200 && stream && isFrames(response.headers())) {
                return readFrames(op, body, start, shape);
            }
            String text = new String(readLimited(body), StandardCharsets.UTF_8);
            long totalMs = millisSince(start);
            if (status != 200) {
                throw failure(op, status, response.headers(), scrub(text));
            }
            JsonNode parsed;
            try {
                parsed = Json.readTree(text);
            } catch (JacksonException e) {
                throw UnexpectedStatus.unusable(op, "its body is not JSON", scrub(text));
            }
            if (!parsed.isObject()) {
                throw UnexpectedStatus.unusable(op, "its body is not a JSON object", scrub(text));
            }
            return new CassetteStore.Recorded(parsed, new Timing(null, totalMs));
        } catch (TooLarge e) {
            throw UnexpectedStatus.unusable(op, e.getMessage(), "");
        } catch (InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            // Reset, dropped, or cut off by the deadline above while the answer was arriving.
            throw TransientError.timeout();
        }
    }

    /** An answer too large to read. */
    private static final class TooLarge extends IOException {
        TooLarge() {
            super("its body is larger than " + MAX_BODY_BYTES + " bytes");
        }
    }

    private CassetteStore.Recorded readStream(String op, InputStream body, long start, ApiShape shape)
            throws IOException, UnexpectedStatus {
        StreamRecording.Captured captured;
        try {
            captured = StreamRecording.read(body, () -> millisSince(start), shape);
        } catch (StreamRecording.Broken e) {
            if (e.endedEarly()) {
                throw new IOException(e.getMessage());
            }
            throw UnexpectedStatus.unusable(op, "its event stream is broken", scrub(e.getMessage()));
        }
        return new CassetteStore.Recorded(captured.completion(), new Timing(captured.firstTokenMs(),
                captured.totalMs()), captured.stream());
    }

    /**
     * Which 429 a live answer is: {@code insufficient_quota} by its error code; a rate limit when its code is
     * {@code rate_limit_exceeded} and it says how much of a window is left ({@code x-ratelimit-remaining-*}); any other
     * 429 is of unknown kind, as a scripted {@code quota} fault is.
     */
    static QuotaExhausted.Kind quotaKind(HttpHeaders headers, String body) {
        String code = errorCode(body);
        if ("insufficient_quota".equals(code)) {
            return QuotaExhausted.Kind.INSUFFICIENT_QUOTA;
        }
        boolean window = headers.firstValue("x-ratelimit-remaining-requests").isPresent()
                || headers.firstValue("x-ratelimit-remaining-tokens").isPresent();
        return "rate_limit_exceeded".equals(code) && window ? QuotaExhausted.Kind.RATE_LIMIT
                : QuotaExhausted.Kind.QUOTA;
    }

    /** The {@code error.code} of an OpenAI-style error body, or {@code null} when it has none. */
    static String errorCode(String body) {
        try {
            tools.jackson.databind.JsonNode code = dev.resilienceharness.json.Json.readTree(body).path("error")
                    .path("code");
            return code.isString() ? code.asString() : null;
        } catch (RuntimeException e) {
            return null; // not JSON: a 429 of unknown kind
        }
    }

    /** The failure an error status stands for. */
    static Exception failureFor(String op, int status, HttpHeaders headers, String body) {
        if (status == 429) {
            return new QuotaExhausted(quotaKind(headers, body),
                    headers.firstValue("retry-after").orElse(null),
                    retryAfterMs(headers.firstValue("retry-after-ms").orElse(null)));
        }
        if (status == 408 || status == 409 || (status >= 500 && status <= 599)) {
            return TransientError.status(status);
        }
        return UnexpectedStatus.of(op, status, body);
    }

    private static CallFailure failure(String op, int status, HttpHeaders headers, String body)
            throws UnexpectedStatus {
        Exception e = failureFor(op, status, headers, body);
        if (e instanceof CallFailure f) {
            return f;
        }
        throw (UnexpectedStatus) e;
    }

    /** A {@code retry-after-ms} header as a delay: a non-negative number of milliseconds, else {@code null}. */
    static Duration retryAfterMs(String header) {
        if (header == null) {
            return null;
        }
        try {
            BigDecimal ms = new BigDecimal(header.strip());
            if (ms.signum() < 0 || ms.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 1_000_000)) > 0) {
                return null;
            }
            return Duration.ofNanos(ms.movePointRight(6).setScale(0, RoundingMode.HALF_EVEN).longValueExact());
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }

    /**
     * Reads a stream in the AWS event-stream framing: Bedrock's ConverseStream, each frame kept as its event, or
     * Bedrock's stream of an Anthropic model, each chunk kept as the Messages event it carries; then assembled as a
     * server-sent stream is.
     */
    private CassetteStore.Recorded readFrames(String op, InputStream body, long start, ApiShape shape)
            throws IOException, UnexpectedStatus {
        List<StreamEvent> events;
        try {
            events = shape == ApiShape.BEDROCK ? BedrockStreams.read(body, () -> millisSince(start))
                    : BedrockChunks.read(body, () -> millisSince(start));
        } catch (EventStreamFrames.BadFrame e) {
            throw UnexpectedStatus.unusable(op, "its event stream is broken", scrub(e.getMessage()));
        }
        StreamRecording.Captured captured;
        try {
            captured = StreamRecording.assemble(events, shape);
        } catch (StreamRecording.Broken e) {
            if (e.endedEarly()) {
                throw new IOException(e.getMessage());
            }
            throw UnexpectedStatus.unusable(op, "its event stream is broken", scrub(e.getMessage()));
        }
        return new CassetteStore.Recorded(captured.completion(), new Timing(captured.firstTokenMs(),
                captured.totalMs()), captured.stream());
    }

    private static boolean isFrames(HttpHeaders headers) {
        return headers.firstValue("content-type").map(v -> v.toLowerCase(java.util.Locale.ROOT)
                .startsWith(EventStreamFrames.CONTENT_TYPE)).orElse(false);
    }

    private static boolean isEventStream(HttpHeaders headers) {
        return headers.firstValue("content-type").map(v -> v.toLowerCase(java.util.Locale.ROOT)
                .startsWith("text/event-stream")).orElse(false);
    }

    /** A body that happens to echo the key never reaches a message. */
    private String scrub(String text) {
        if (authorization == null || text == null) {
            return text;
        }
        String key = authorization.substring("Bearer ".length());
        return key.isEmpty() ? text : text.replace(key, "****");
    }

    private static byte[] readLimited(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) > 0) {
            if (out.size() + n > MAX_BODY_BYTES) {
                throw new TooLarge();
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // Closing is how a stalled read is ended; a failure to close changes nothing.
        }
    }
}
