package dev.resilienceharness.clients.bedrock;

import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * The AWS SDK's {@link SdkHttpClient}, where the network would be: it answers each attempt from the scenario run
 * ({@link HttpEndpoint#exchange}) and opens no socket. The SDK's retry stage sits above it, so every attempt, the
 * SDK's own retries included, is one call in the run's trace, numbered by the {@code amz-sdk-request: attempt=N}
 * header the SDK stamps on each.
 *
 * <p>A timeout comes back as what the SDK would see ({@link SdkTimeouts}): the socket read's
 * {@link java.net.SocketTimeoutException}, or the client's {@code apiCallAttemptTimeout} or {@code apiCallTimeout}
 * exception when that is shorter; a slow first token is a body whose first read moves the virtual clock on, read
 * before the call returns, as a non-streaming answer's status line comes with its first byte. The run's crash signal
 * and cassette misses pass through untouched.
 */
final class RunHttpClient implements SdkHttpClient {

    private static final Pattern ATTEMPT = Pattern.compile("attempt=(\\d+)");

    private final HttpEndpoint http;
    private final SdkTimeouts timeouts;
    private final CallStarts calls;

    RunHttpClient(HttpEndpoint http) {
        this(http, new SdkTimeouts(SdkTimeouts.SOCKET_READ, null, null));
    }

    RunHttpClient(HttpEndpoint http, SdkTimeouts timeouts) {
        this.http = Objects.requireNonNull(http, "http");
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        this.calls = new CallStarts(http.clock());
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() throws IOException {
                return exchange(request);
            }

            @Override
            public void abort() {
                // Nothing is in flight: the run answers in-process.
            }
        };
    }

    private HttpExecuteResponse exchange(HttpExecuteRequest request) throws IOException {
        SdkHttpRequest sent = request.httpRequest();
        byte[] body = new byte[0];
        if (request.contentStreamProvider().isPresent()) {
            try (InputStream in = request.contentStreamProvider().get().newStream()) {
                body = in.readAllBytes();
            }
        }
        SdkTimeouts timeouts = this.timeouts.into(calls.elapsed(sent.headers()));
        if (timeouts.spent()) {
            throw timeouts.callTimedOut(); // the call's time ran out in the SDK's backoff: no attempt is made
        }
        Duration timeout = timeouts.forAttempt();
        HttpAttempt attempt = new HttpAttempt(BedrockSdk.LABEL, sent.method().name(), sent.encodedPath(),
                sent.headers(), body, timeout, retry(sent.headers()));
        HttpAnswer answer = http.exchange(attempt);
        if (answer instanceof HttpAnswer.TimedOut timedOut) {
            throw timeouts.timedOut(timedOut.after());
        }
        HttpAnswer.Response r = (HttpAnswer.Response) answer;
        Map<String, List<String>> headers = new LinkedHashMap<>(r.headers());
        SdkHttpResponse response = SdkHttpResponse.builder().statusCode(r.status())
                .statusText(r.status() == 200 ? "OK" : "HTTP " + r.status()).headers(headers).build();
        return HttpExecuteResponse.builder().response(response)
                .responseBody(AbortableInputStream.create(timeouts.read(http.body(r, timeout)))).build();
    }

    /** The SDK's own retry number: {@code attempt=1} is the loop's call, each later attempt the SDK's retry. */
    static int retry(Map<String, List<String>> headers) {
        for (Map.Entry<String, List<String>> h : headers.entrySet()) {
            if (h.getKey().equalsIgnoreCase("amz-sdk-request")) {
                for (String value : h.getValue()) {
                    Matcher m = ATTEMPT.matcher(value);
                    if (m.find()) {
                        return Math.max(0, Integer.parseInt(m.group(1)) - 1);
                    }
                }
            }
        }
        return 0;
    }

    @Override
    public String clientName() {
        return "ResilienceHarnessRun";
    }

    @Override
    public void close() {
        // The run outlives the client.
    }
}
