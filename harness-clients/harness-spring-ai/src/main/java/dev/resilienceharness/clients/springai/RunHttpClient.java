package dev.resilienceharness.clients.springai;

import com.openai.core.RequestOptions;
import com.openai.core.Timeout;
import com.openai.core.http.HttpClient;
import com.openai.core.http.HttpRequest;
import com.openai.core.http.HttpRequestBody;
import com.openai.core.http.HttpResponse;
import com.openai.errors.OpenAIIoException;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.json.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * openai-java's HTTP client SPI answered by a scenario run: every attempt the SDK makes, its own retries included,
 * is one {@link HttpEndpoint#exchange} and so one call in the run's trace. No socket is ever opened.
 *
 * <p>A streaming attempt ({@code ChatModel.stream}) goes to the run as the SDK sent it, {@code stream} and
 * {@code stream_options} included, so that recording keeps the provider's events with their timing; its 200 is the
 * run's event stream, read event by event on the run's clock, where the stream faults strike it (a cut is the
 * {@link IOException} of a dropped connection, a stall past the read timeout a {@link SocketTimeoutException}). A
 * request recorded whole (as this adapter recorded streams before) answers its stream too, split as a provider
 * splits it.
 */
final class RunHttpClient implements HttpClient {

    private final HttpEndpoint endpoint;
    private final String sdk;

    RunHttpClient(HttpEndpoint endpoint, String sdk) {
        this.endpoint = endpoint;
        this.sdk = sdk;
    }

    @Override
    public HttpResponse execute(HttpRequest request, RequestOptions options) {
        Timeout timeout = options.getTimeout();
        Map<String, List<String>> headers = headers(request);
        byte[] sent = body(request.body());
        boolean streaming = streaming(headers);
        HttpAttempt attempt = new HttpAttempt(sdk, request.method().name(), String.join("/", request.pathSegments()),
                headers, sent, timeout == null ? null : timeout.request(), HttpAttempt.stainlessRetryCount(headers));
        HttpAnswer answer = endpoint.exchange(attempt);
        if (answer instanceof HttpAnswer.TimedOut timedOut) {
            // What openai-java's own OkHttp client throws on an I/O timeout, which its retry layer retries.
            throw new OpenAIIoException("Request failed", new SocketTimeoutException("timeout: no answer in "
                    + timedOut.after().toMillis() + " ms"));
        }
        HttpAnswer.Response response = (HttpAnswer.Response) answer;
        Duration readTimeout = timeout == null ? null : timeout.read();
        InputStream late = endpoint.body(response, readTimeout);
        if (streaming && response.status() == 200 && response.events() != null) {
            // The run's events, each read at its offset on the virtual clock: the SDK's parser sees them one by one.
            return new RunHttpResponse(response, late, "text/event-stream");
        }
        if (streaming) {
            return response.status() == 200
                    ? new RunHttpResponse(response, new EventStream(late, sent, Stream.of(sent).includeUsage()),
                            "text/event-stream")
                    : new RunHttpResponse(response, late, null);
        }
        // A whole answer comes with its status line, so a late one is a timeout before any header, which the SDK
        // retries (as with OkHttp); only a stream's headers come before its first token.
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
        // The answer is already known: the run's clock, not a socket, decides when it arrives.
        try {
            return CompletableFuture.completedFuture(execute(request, options));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() {
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

    /** A streaming request: whether it asked for a usage chunk. */
    private record Stream(boolean includeUsage) {

        static Stream of(byte[] sent) {
            JsonNode body;
            try {
                body = Json.readTree(sent);
            } catch (RuntimeException notJson) {
                return new Stream(false);
            }
            return new Stream(body instanceof ObjectNode o
                    && o.path("stream_options").path("include_usage").asBoolean(false));
        }
    }

    /**
     * The events of a whole completion a 200 to a stream brought without events of its own, from the first read on:
     * that read waits for the first token.
     */
    private static final class EventStream extends InputStream {

        private final InputStream late;
        private final byte[] request;
        private final boolean includeUsage;
        private InputStream events;

        EventStream(InputStream late, byte[] request, boolean includeUsage) {
            this.late = late;
            this.request = request;
            this.includeUsage = includeUsage;
        }

        private InputStream events() throws IOException {
            if (events == null) {
                byte[] completion = HttpEndpoint.readAll(late);
                events = new ByteArrayInputStream(SseEvents.of(completion, includeUsage));
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
