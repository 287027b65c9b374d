package dev.resilienceharness.clients.openai;

import com.openai.core.RequestOptions;
import com.openai.core.Timeout;
import com.openai.core.http.Headers;
import com.openai.core.http.HttpClient;
import com.openai.core.http.HttpRequest;
import com.openai.core.http.HttpRequestBody;
import com.openai.core.http.HttpResponse;
import com.openai.errors.OpenAIIoException;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * openai-java's HTTP client SPI over a scenario run's endpoint: each attempt the SDK makes, its own retries included,
 * is one call of the run, answered from the cassettes with the fault plan applied. No socket is ever opened.
 */
final class RunHttpClient implements HttpClient {

    private final HttpEndpoint endpoint;
    private volatile String sdk = HarnessOpenAi.SDK;

    RunHttpClient(HttpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** The SDK and version the last attempt named in {@code X-Stainless-Package-Version}. */
    String sdk() {
        return sdk;
    }

    @Override
    public HttpResponse execute(HttpRequest request, RequestOptions options) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String name : request.headers().names()) {
            headers.put(name, request.headers().values(name));
        }
        List<String> version = request.headers().values("X-Stainless-Package-Version");
        if (!version.isEmpty()) {
            sdk = HarnessOpenAi.SDK + " " + version.get(0);
        }
        Duration readTimeout = readTimeout(options);
        HttpAttempt attempt = new HttpAttempt(sdk, request.method().name(), String.join("/", request.pathSegments()),
                headers, body(request.body()), readTimeout, HttpAttempt.stainlessRetryCount(headers));
        HttpAnswer answer = endpoint.exchange(attempt);
        if (answer instanceof HttpAnswer.TimedOut timedOut) {
            // What the SDK's own OkHttp client throws on a read timeout, which its retry layer retries.
            throw new OpenAIIoException("Request failed", new SocketTimeoutException("timeout after "
                    + timedOut.after().toMillis() + " ms (injected by the scenario's fault plan)"));
        }
        HttpAnswer.Response response = (HttpAnswer.Response) answer;
        return new RunResponse(response, endpoint.body(response, readTimeout));
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

    private static Duration readTimeout(RequestOptions options) {
        Timeout timeout = options.getTimeout();
        if (timeout == null) {
            return null;
        }
        Duration read = timeout.read();
        return read != null && !read.isZero() ? read : timeout.request();
    }

    private static byte[] body(HttpRequestBody body) {
        if (body == null) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        body.writeTo(out);
        return out.toByteArray();
    }

    /** A response as openai-java reads it. */
    private static final class RunResponse implements HttpResponse {

        private final HttpAnswer.Response response;
        private final InputStream body;
        private final Headers headers;

        RunResponse(HttpAnswer.Response response, InputStream body) {
            this.response = response;
            this.body = body;
            Headers.Builder h = Headers.builder();
            response.headers().forEach(h::put);
            this.headers = h.build();
        }

        @Override
        public int statusCode() {
            return response.status();
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
        }
    }
}
