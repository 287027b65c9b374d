package dev.resilienceharness.clients.anthropic;

import com.anthropic.backends.Backend;
import com.anthropic.core.RequestOptions;
import com.anthropic.core.Timeout;
import com.anthropic.core.http.Headers;
import com.anthropic.core.http.HttpClient;
import com.anthropic.core.http.HttpRequest;
import com.anthropic.core.http.HttpRequestBody;
import com.anthropic.core.http.HttpResponse;
import com.anthropic.errors.AnthropicIoException;
import dev.resilienceharness.http.AttemptTimeout;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.http.SdkBackoff;
import dev.resilienceharness.http.SdkSleeper;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * anthropic-java's HTTP client SPI over a scenario run: the SDK's every attempt, its own retries included, is one
 * {@link HttpEndpoint#exchange} and so one call in the run's trace. It sits where the SDK's OkHttp client would, below
 * the SDK's retry layer, and opens no socket.
 *
 * <p>A timeout comes back as what the OkHttp client throws on one, an {@link AnthropicIoException} caused by a
 * {@link SocketTimeoutException}, which the SDK retries as its own. A slow first token is a body whose first read
 * moves the virtual clock on (and times out past the read timeout, as a socket read would). A streamed answer
 * ({@code messages().createStreaming}) is the same body read event by event: each of its named events arrives at its
 * offset on the virtual clock, a cut is the {@link java.io.IOException} a dropped connection is, a stall past the read
 * timeout a {@link SocketTimeoutException}, and an {@code event: error} reaches the SDK's own parser, which throws its
 * {@code SseException}. The run's crash signal and cassette misses pass through untouched: the SDK retries neither.
 *
 * <p>With a {@link Backend} (Bedrock's, Vertex AI's), it does what the OkHttp client does with one: the backend
 * prepares each request (its path, its body), authorizes it (with the placeholder credentials it was built with), and
 * prepares each response, so that the run sees the request the cloud would and the SDK reads the answer as it would
 * read the cloud's.
 */
final class RunHttpClient implements HttpClient {

    private final HttpEndpoint http;
    private final Backend backend;
    private final SdkSleeper waits;

    RunHttpClient(HttpEndpoint http) {
        this(http, null);
    }

    /** @param backend the backend that prepares requests and responses, or {@code null}: Anthropic's own API */
    RunHttpClient(HttpEndpoint http, Backend backend) {
        this.http = Objects.requireNonNull(http, "http");
        this.backend = backend;
        this.waits = new SdkSleeper(http, () -> AnthropicSdk.LABEL, SdkBackoff.STAINLESS);
    }

    /**
     * The sleeper to give the same client options: it waits anthropic-java's backoff at its nominal value, without
     * the jitter the SDK draws from {@code ThreadLocalRandom}, knowing from this client which retry comes next and
     * whether the answer stated its delay ({@link SdkBackoff}).
     */
    RunSleeper sleeper() {
        return new RunSleeper(waits);
    }

    @Override
    public HttpResponse execute(HttpRequest request, RequestOptions options) {
        Duration timeout = timeout(options);
        HttpAttempt attempt = attempt(backend == null ? request : prepared(request), timeout);
        HttpAnswer answer = http.exchange(attempt);
        waits.answered(attempt, answer);
        if (answer instanceof HttpAnswer.TimedOut timedOut) {
            throw new AnthropicIoException("Request failed",
                    new SocketTimeoutException(AdapterMessages.timedOut(timedOut.after())));
        }
        HttpResponse response = new RunHttpResponse((HttpAnswer.Response) answer, http, timeout);
        return backend == null ? response : backend.prepareResponse(response);
    }

    /**
     * {@code request} as the OkHttp client sends it through the backend: prepared (path and body), its URL resolved,
     * then authorized. A Bedrock stream ({@code invoke-with-response-stream}) is answered in the AWS event-stream
     * framing, one {@code chunk} frame per Messages event, which the backend's {@code prepareResponse} turns back into
     * server-sent events on a thread of its own.
     */
    private HttpRequest prepared(HttpRequest request) {
        // Without the request's qualifiers, which the SDK keeps to itself: messages() calls carry none (beta ones may).
        HttpRequest prepared = backend.prepareRequest(request);
        return backend.authorizeRequest(prepared.toBuilder().baseUrl(url(prepared)).build());
    }

    /** The request's whole URL: its path segments and query below its base URL. */
    static String url(HttpRequest request) {
        URI base = URI.create(request.baseUrl());
        StringBuilder path = new StringBuilder(base.getPath().replaceAll("/+$", ""));
        request.pathSegments().forEach(s -> path.append('/').append(s));
        StringBuilder query = new StringBuilder();
        for (String key : request.queryParams().keys()) {
            for (String value : request.queryParams().values(key)) {
                query.append(query.length() == 0 ? "" : "&").append(key).append('=').append(value);
            }
        }
        try {
            // This constructor quotes what a URL may not carry as it is, as OkHttp's HttpUrl does.
            return new URI(base.getScheme(), base.getRawAuthority(), path.toString(),
                    query.length() == 0 ? null : query.toString(), null).toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(base + " with " + request.pathSegments() + " is no URL", e);
        }
    }

    @Override
    public CompletableFuture<HttpResponse> executeAsync(HttpRequest request, RequestOptions options) {
        // The run answers at once on the virtual clock, so the async path completes on the caller's thread; the
        // crash signal is an Error and is thrown, as it is from execute, rather than hidden in the future.
        try {
            return CompletableFuture.completedFuture(execute(request, options));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
        // No connection was opened; the backend is closed as the OkHttp client closes it (Bedrock's, its threads).
        if (backend != null) {
            backend.close();
        }
    }

    /** The attempt as the run sees it: the API path, the headers and JSON body the SDK sent, its retry number. */
    static HttpAttempt attempt(HttpRequest request, Duration timeout) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        Headers h = request.headers();
        for (String name : h.names()) {
            headers.put(name, h.values(name));
        }
        return new HttpAttempt(AnthropicSdk.LABEL, request.method().name(), String.join("/", request.pathSegments()),
                headers, body(request), timeout, HttpAttempt.stainlessRetryCount(headers));
    }

    /**
     * How long the SDK waits for an answer: {@link AttemptTimeout} of its read and whole-request timeouts, as the
     * OkHttp client enforces them; {@code null} when the request carries none.
     */
    static Duration timeout(RequestOptions options) {
        if (options == null || options.timeout().isEmpty()) {
            return null;
        }
        Timeout t = options.timeout().get();
        return AttemptTimeout.of(t.read(), t.request());
    }

    private static byte[] body(HttpRequest request) {
        if (request.body().isEmpty()) {
            return new byte[0];
        }
        HttpRequestBody body = request.body().get();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        body.writeTo(out);
        return out.toByteArray();
    }

    /** The run's answer as the SDK reads a response. */
    private static final class RunHttpResponse implements HttpResponse {

        private final HttpAnswer.Response answer;
        private final Headers headers;
        private final InputStream body;

        RunHttpResponse(HttpAnswer.Response answer, HttpEndpoint http, Duration readTimeout) {
            this.answer = answer;
            Headers.Builder b = Headers.builder();
            answer.headers().forEach(b::put);
            this.headers = b.build();
            this.body = http.body(answer, readTimeout);
        }

        @Override
        public int statusCode() {
            return answer.status();
        }

        @Override
        public Headers headers() {
            return headers;
        }

        @Override
        public InputStream body() {
            return body;
        }

        @Override
        public void close() {
            // The body is in memory; there is no connection to hand back.
        }
    }
}
