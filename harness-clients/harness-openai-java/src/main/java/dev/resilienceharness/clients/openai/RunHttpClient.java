package dev.resilienceharness.clients.openai;

import com.openai.core.RequestOptions;
import com.openai.core.Timeout;
import com.openai.core.http.HttpClient;
import com.openai.core.http.HttpRequest;
import com.openai.core.http.HttpRequestBody;
import com.openai.core.http.HttpResponse;
import com.openai.errors.OpenAIIoException;
import dev.resilienceharness.http.AttemptTimeout;
import dev.resilienceharness.http.ChunkStreams;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.http.SdkBackoff;
import dev.resilienceharness.http.SdkSleeper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * openai-java's HTTP client SPI answered by a scenario run: every attempt the SDK makes, its own retries included,
 * is one {@link HttpEndpoint#exchange} and so one call in the run's trace. No socket is ever opened. This adapter's
 * client uses it, and so does every framework that runs on openai-java (Spring AI's adapter), naming itself.
 *
 * <p>An attempt waits for the shorter of the SDK's read and request timeouts ({@link AttemptTimeout}); a timeout is
 * what openai-java's own OkHttp client throws on one, an {@link OpenAIIoException} caused by a
 * {@link SocketTimeoutException}, which the SDK's retry layer retries. A streaming attempt ({@code Accept:
 * text/event-stream}) goes to the run as the SDK sent it, {@code stream} and {@code stream_options} included, so that
 * recording keeps the provider's events with their timing; its 200 is the run's event stream, read event by event on
 * the run's clock, where the stream faults strike it (a cut is the {@link IOException} of a dropped connection, a
 * stall past the read timeout a {@link SocketTimeoutException}). A whole answer to a streaming request is split as a
 * provider splits it ({@link ChunkStreams}).
 */
public final class RunHttpClient implements HttpClient {

    private final HttpEndpoint endpoint;
    private final String named;
    private final boolean wholeAnswersBeforeHeaders;
    private final SdkSleeper waits;
    private volatile String sdk;

    private RunHttpClient(HttpEndpoint endpoint, String sdk, boolean named, boolean wholeAnswersBeforeHeaders) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.sdk = Objects.requireNonNull(sdk, "sdk");
        this.named = named ? sdk : null;
        this.wholeAnswersBeforeHeaders = wholeAnswersBeforeHeaders;
        this.waits = new SdkSleeper(endpoint, this::sdk, SdkBackoff.STAINLESS);
    }

    /**
     * The sleeper to give the same client options: it waits openai-java's backoff at its nominal value, without the
     * jitter the SDK draws from {@code ThreadLocalRandom}, knowing from this client which retry comes next and
     * whether the answer stated its delay ({@link SdkBackoff}).
     */
    public RunSleeper sleeper() {
        return new RunSleeper(waits);
    }

    /**
     * The client of this adapter: the trace names openai-java with the version each attempt states in
     * {@code X-Stainless-Package-Version}, and a whole answer's body may arrive late, past its headers.
     */
    static RunHttpClient openAiJava(HttpEndpoint endpoint) {
        return new RunHttpClient(endpoint, HarnessOpenAi.SDK, false, false);
    }

    /**
     * The client for a framework that runs on openai-java (Spring AI), which the trace names {@code sdk}. A whole
     * answer (not a stream) comes with its status line, so a late one is a timeout before any header, which the SDK
     * retries (as with OkHttp); only a stream's headers come before its first token.
     */
    public static RunHttpClient forFramework(HttpEndpoint endpoint, String sdk) {
        return new RunHttpClient(endpoint, sdk, true, true);
    }

    /** The SDK and version the trace names for the last attempt. */
    String sdk() {
        return sdk;
    }

    @Override
    public HttpResponse execute(HttpRequest request, RequestOptions options) {
        Map<String, List<String>> headers = headers(request);
        if (named == null) {
            List<String> version = request.headers().values("X-Stainless-Package-Version");
            if (!version.isEmpty()) {
                sdk = HarnessOpenAi.SDK + " " + version.get(0);
            }
        }
        Duration timeout = timeout(options);
        byte[] sent = body(request.body());
        boolean streaming = streaming(headers);
        HttpAttempt attempt = new HttpAttempt(sdk, request.method().name(), String.join("/", request.pathSegments()),
                headers, sent, timeout, HttpAttempt.stainlessRetryCount(headers));
        HttpAnswer answer = endpoint.exchange(attempt);
        waits.answered(attempt, answer);
        if (answer instanceof HttpAnswer.TimedOut timedOut) {
            // What openai-java's own OkHttp client throws on an I/O timeout, which its retry layer retries.
            throw new OpenAIIoException("Request failed", new SocketTimeoutException(
                    OpenAiMessages.timedOut(timedOut.after())));
        }
        HttpAnswer.Response response = (HttpAnswer.Response) answer;
        InputStream late = endpoint.body(response, timeout);
        if (streaming && response.status() == 200) {
            // The run's events, each read at its offset on the virtual clock: the SDK's parser sees them one by one.
            InputStream events = response.events() != null ? late
                    : new WholeAnswerEvents(late, ChunkStreams.includesUsage(sent));
            return new RunHttpResponse(response, events, "text/event-stream");
        }
        if (streaming || !wholeAnswersBeforeHeaders) {
            return new RunHttpResponse(response, late, null);
        }
        byte[] bytes;
        try {
            bytes = HttpEndpoint.readAll(late);
        } catch (IOException e) {
            throw new OpenAIIoException("Request failed", e);
        }
        return new RunHttpResponse(response, new ByteArrayInputStream(bytes), null);
    }

    @Override
    public CompletableFuture<HttpResponse> executeAsync(HttpRequest request, RequestOptions options) {
        // Answered on the caller's thread: the run's order of calls and waits stays the order the code made them.
        try {
            return CompletableFuture.completedFuture(execute(request, options));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
    }

    /** How long the attempt waits: {@link AttemptTimeout} of the SDK's read and request timeouts. */
    static Duration timeout(RequestOptions options) {
        Timeout timeout = options == null ? null : options.getTimeout();
        return timeout == null ? null : AttemptTimeout.of(timeout.read(), timeout.request());
    }

    private static boolean streaming(Map<String, List<String>> headers) {
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase("Accept") && e.getValue().stream()
                    .anyMatch(v -> v.contains("text/event-stream"))) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, List<String>> headers(HttpRequest request) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String name : request.headers().names()) {
            headers.put(name, request.headers().values(name));
        }
        return headers;
    }

    private static byte[] body(HttpRequestBody body) {
        if (body == null) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        body.writeTo(out);
        return out.toByteArray();
    }

    /**
     * The events of a whole completion a 200 to a stream brought without events of its own, from the first read on:
     * that read waits for the first token.
     */
    private static final class WholeAnswerEvents extends InputStream {

        private final InputStream late;
        private final boolean includeUsage;
        private InputStream events;

        WholeAnswerEvents(InputStream late, boolean includeUsage) {
            this.late = late;
            this.includeUsage = includeUsage;
        }

        private InputStream events() throws IOException {
            if (events == null) {
                events = new ByteArrayInputStream(ChunkStreams.wire(HttpEndpoint.readAll(late), includeUsage));
            }
            return events;
        }

        @Override
        public int read() throws IOException {
            return events().read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return events().read(b, off, len);
        }

        @Override
        public void close() throws IOException {
            late.close();
        }
    }
}
