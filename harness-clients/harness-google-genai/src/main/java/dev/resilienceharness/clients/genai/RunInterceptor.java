package dev.resilienceharness.clients.genai;

import dev.resilienceharness.http.AttemptTimeout;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.Okio;

/**
 * The last interceptor of google-genai's OkHttp client, where the network would be: it answers each attempt from the
 * scenario run ({@link HttpEndpoint#exchange}) and never calls on. It sits below the SDK's {@code RetryInterceptor},
 * so that every attempt, the SDK's own retries included, is one call in the run's trace, numbered by how often the
 * SDK sent the same request.
 *
 * <p>A timeout comes back as the {@link SocketTimeoutException} OkHttp throws on one, which the SDK retries as its
 * own; a slow first token is a body whose first read moves the virtual clock on; a streamed answer is the same body
 * read chunk by chunk. The run's crash signal and cassette misses pass through untouched.
 */
final class RunInterceptor implements Interceptor {

    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
    private static final MediaType EVENTS = MediaType.get("text/event-stream");

    private final HttpEndpoint http;
    /** How often each request object was sent: the SDK's retry layer sends the same object again. */
    private final Map<Request, Integer> sent = Collections.synchronizedMap(new WeakHashMap<>());

    RunInterceptor(HttpEndpoint http) {
        this.http = Objects.requireNonNull(http, "http");
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        int retry = sent.merge(request, 1, Integer::sum) - 1;
        Duration timeout = AttemptTimeout.of(millis(chain.readTimeoutMillis()),
                millis(chain.call().timeout().timeoutNanos() / 1_000_000));
        HttpAttempt attempt = new HttpAttempt(GenaiSdk.LABEL, request.method(), request.url().encodedPath(),
                headers(request), body(request), timeout, retry);
        HttpAnswer answer = http.exchange(attempt);
        if (answer instanceof HttpAnswer.TimedOut timedOut) {
            throw new SocketTimeoutException(AdapterMessages.timedOut(timedOut.after()));
        }
        HttpAnswer.Response r = (HttpAnswer.Response) answer;
        Response.Builder b = new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(r.status())
                .message(r.status() == 200 ? "OK" : "HTTP " + r.status());
        r.headers().forEach((name, values) -> values.forEach(v -> b.addHeader(name, v)));
        MediaType type = r.status() == 200 && r.events() != null ? EVENTS : JSON;
        b.body(ResponseBody.create(Okio.buffer(Okio.source(http.body(r, timeout))), type, -1));
        return b.build();
    }

    private static Duration millis(long ms) {
        return ms > 0 ? Duration.ofMillis(ms) : null;
    }

    private static Map<String, List<String>> headers(Request request) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String name : request.headers().names()) {
            out.put(name, request.headers(name));
        }
        return out;
    }

    private static byte[] body(Request request) throws IOException {
        if (request.body() == null) {
            return new byte[0];
        }
        Buffer buffer = new Buffer();
        request.body().writeTo(buffer);
        return buffer.readByteArray();
    }
}
