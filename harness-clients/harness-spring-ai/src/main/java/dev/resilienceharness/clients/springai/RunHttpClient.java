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

/**
 * openai-java's HTTP client SPI answered by a scenario run: every attempt the SDK makes, its own retries included,
 * is one {@link HttpEndpoint#exchange} and so one call in the run's trace. No socket is ever opened.
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
        HttpAttempt attempt = new HttpAttempt(sdk, request.method().name(), String.join("/", request.pathSegments()),
                headers(request), body(request.body()), timeout == null ? null : timeout.request(),
                HttpAttempt.stainlessRetryCount(headers(request)));
        HttpAnswer answer = endpoint.exchange(attempt);
        if (answer instanceof HttpAnswer.TimedOut timedOut) {
            // What openai-java's own OkHttp client throws on an I/O timeout, which its retry layer retries.
            throw new OpenAIIoException("Request failed", new SocketTimeoutException("timeout: no answer in "
                    + timedOut.after().toMillis() + " ms"));
        }
        HttpAnswer.Response response = (HttpAnswer.Response) answer;
        Duration readTimeout = timeout == null ? null : timeout.read();
        InputStream body = endpoint.body(response, readTimeout);
        if (!streaming(attempt)) {
            // A whole answer comes with its status line, so a late one is a timeout before any header, which the
            // SDK retries (as with OkHttp); only a stream's headers come before its first token.
            byte[] bytes;
            try {
                bytes = HttpEndpoint.readAll(body);
            } catch (IOException e) {
                throw new OpenAIIoException("Request failed", e);
            }
            if (response.status() == 200) {
                bytes = StrippedIdentifiers.restore(bytes, attempt.body());
            }
            body = new ByteArrayInputStream(bytes);
        }
        return new RunHttpResponse(response, body);
    }

    private static boolean streaming(HttpAttempt attempt) {
        String accept = attempt.header("Accept");
        return accept != null && accept.contains("text/event-stream");
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

}
