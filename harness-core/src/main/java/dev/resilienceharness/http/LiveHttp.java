package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Forwards SDK attempts to a live provider over the JDK's HTTP client: {@code {baseUrl}/{path}}, the SDK's own
 * headers kept except credentials and hop-by-hop ones, and the key from the environment in the header the SDK used
 * ({@code x-api-key} for Anthropic's, {@code x-goog-api-key} for Gemini's, {@code Authorization: Bearer} otherwise).
 * A Gemini stream is asked for with {@code alt=sse}. A Bedrock request loses the SigV4 signature the SDK made with
 * its placeholder credentials ({@code Authorization}, {@code X-Amz-Date}, {@code X-Amz-Security-Token},
 * {@code x-amz-content-sha256}) and carries the Bedrock API key as a Bearer token, or is signed anew for the real host
 * ({@link AwsSigV4}). The answer is redacted before it is written, never here.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class LiveHttp implements HttpForwarder {

    private static final Set<String> DROPPED = Set.of("authorization", "x-api-key", "api-key", "x-goog-api-key",
            "host", "content-length", "connection", "accept-encoding", "transfer-encoding", "upgrade", "expect",
            "keep-alive", "te", "trailer", "proxy-authorization", "cookie");

    /** The headers of an SDK's SigV4 signature besides {@code Authorization}, made with placeholder credentials. */
    private static final Set<String> SIGNATURE = Set.of("x-amz-date", "x-amz-security-token",
            "x-amz-content-sha256");

    private final URI baseUrl;
    private final String apiKey;
    private final AwsSigV4 signer;
    private final HttpClient client;
    private final Duration timeout;

    private LiveHttp(URI baseUrl, String apiKey, AwsSigV4 signer, Duration timeout) {
        String base = baseUrl.toString();
        this.baseUrl = URI.create(base.endsWith("/") ? base : base + "/");
        this.apiKey = apiKey;
        this.signer = signer;
        this.timeout = timeout;
        // HTTP/1.1, as the plain live transport sends: on an http:// address the JDK's default would ask for an
        // upgrade to h2c, which local gateways and mock servers answer with a 404 or a closed connection.
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    /**
     * A forwarder to {@code baseUrl} (for example {@code https://api.openai.com/v1}) with {@code apiKey}
     * ({@code null}: a provider that takes no key, and no credential header is sent).
     *
     * @param timeout how long one request may take
     */
    public static LiveHttp to(URI baseUrl, String apiKey, Duration timeout) {
        return new LiveHttp(baseUrl, apiKey, null, timeout);
    }

    /**
     * A forwarder to {@code baseUrl} that signs each Bedrock request with {@code signer} (AWS SigV4) and sends the
     * others without a credential.
     *
     * @param timeout how long one request may take
     */
    public static LiveHttp signing(URI baseUrl, AwsSigV4 signer, Duration timeout) {
        return new LiveHttp(baseUrl, null, java.util.Objects.requireNonNull(signer, "signer"), timeout);
    }

    @Override
    public HttpAnswer.Response send(HttpAttempt attempt) throws IOException {
        ApiShape shape = ApiShape.forPath("/" + attempt.path());
        boolean gemini = shape == ApiShape.GEMINI;
        // Bedrock's Converse, or its InvokeModel of an Anthropic model (anthropic-java's Bedrock backend): both signed.
        boolean bedrock = shape == ApiShape.BEDROCK || AnthropicCloudPaths.bedrock(attempt.path());
        // The attempt's path has lost its query; Gemini streams as server-sent events only with alt=sse.
        String path = gemini && attempt.path().endsWith(":streamGenerateContent") ? attempt.path() + "?alt=sse"
                : attempt.path();
        HttpRequest.Builder request = HttpRequest.newBuilder(baseUrl.resolve(path))
                .timeout(timeout)
                .method(attempt.method(), HttpRequest.BodyPublishers.ofByteArray(attempt.body()));
        boolean anthropic = false;
        for (var header : attempt.headers().entrySet()) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (name.equals("x-api-key")) {
                anthropic = true;
            }
            if (DROPPED.contains(name) || bedrock && SIGNATURE.contains(name)) {
                continue;
            }
            for (String value : header.getValue()) {
                request.header(header.getKey(), value);
            }
        }
        if (signer != null && bedrock) {
            URI uri = baseUrl.resolve(path);
            signer.sign(attempt.method(), uri, Map.of(), attempt.body(), java.time.Instant.now(), true)
                    .forEach(request::header);
        } else if (apiKey != null && gemini) {
            request.header("x-goog-api-key", apiKey);
        } else if (apiKey != null && anthropic) {
            request.header("x-api-key", apiKey);
        } else if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        long start = System.nanoTime();
        HttpResponse<java.io.InputStream> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + baseUrl.resolve(attempt.path()), e);
        } catch (IOException e) {
            throw new IOException("cannot reach " + baseUrl.resolve(attempt.path()) + ": "
                    + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()), e);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        var headers = new java.util.LinkedHashMap<String, List<String>>();
        response.headers().map().forEach(headers::put);
        String type = response.headers().firstValue("content-type").orElse("").toLowerCase(Locale.ROOT);
        boolean frames = response.statusCode() == 200 && type.startsWith(EventStreamFrames.CONTENT_TYPE);
        boolean stream = response.statusCode() == 200 && type.startsWith("text/event-stream") || frames;
        java.io.InputStream answer = response.body();
        // The client's timeout ends with the headers; this bounds reading the body (or stream) too.
        long left = Math.max(1, timeout.toNanos() - took.toNanos());
        java.util.concurrent.CompletableFuture.delayedExecutor(left, java.util.concurrent.TimeUnit.NANOSECONDS)
                .execute(() -> closeQuietly(answer));
        try (java.io.InputStream body = answer) {
            if (stream) {
                // Every event stamped as it arrives, so that the cassette keeps the stream's timing.
                java.util.function.LongSupplier since = () -> java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(
                        System.nanoTime() - start);
                if (frames && BedrockChunks.streams(attempt.path())) {
                    // Bedrock's stream of an Anthropic model: each chunk kept as the Messages event it carries.
                    List<dev.resilienceharness.cassette.StreamEvent> events = BedrockChunks.read(body, since);
                    return new HttpAnswer.Response(-1, 200, headers, BedrockChunks.frames(events), took, events);
                }
                if (frames) {
                    // Bedrock's ConverseStream: AWS event-stream frames, each kept as its event type and payload.
                    List<dev.resilienceharness.cassette.StreamEvent> events = BedrockStreams.read(body, since);
                    return new HttpAnswer.Response(-1, 200, headers, BedrockStreams.frames(events), took, events);
                }
                List<dev.resilienceharness.cassette.StreamEvent> events = SseEvents.read(body, since);
                StringBuilder wire = new StringBuilder();
                events.forEach(e -> wire.append(e.wire()));
                return new HttpAnswer.Response(-1, 200, headers,
                        wire.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), took, events);
            }
            return new HttpAnswer.Response(-1, response.statusCode(), headers, body.readAllBytes(), took);
        }
    }

    private static void closeQuietly(java.io.InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // Closing is how a stalled read is ended; a failure to close changes nothing.
        }
    }
}
