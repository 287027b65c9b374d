package dev.resilienceharness.clients.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.openai.core.RequestOptions;
import com.openai.core.Timeout;
import com.openai.core.http.HttpMethod;
import com.openai.core.http.HttpRequest;
import com.openai.core.http.HttpRequestBody;
import com.openai.core.http.HttpResponse;
import com.openai.errors.OpenAIIoException;
import dev.resilienceharness.http.ChunkStreams;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** openai-java's HTTP client SPI over an endpoint that answers as told and keeps what it was asked. */
class RunHttpClientTest {

    private static final String COMPLETION = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":7,\"model\":"
            + "\"m\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},"
            + "\"finish_reason\":\"stop\"}]}";

    /** Answers every attempt with {@code answer}; a body whose first byte is late times out past the read timeout. */
    private static final class Endpoint implements HttpEndpoint {
        final HttpAnswer answer;
        final List<HttpAttempt> attempts = new ArrayList<>();
        final List<Duration> readTimeouts = new ArrayList<>();

        Endpoint(HttpAnswer answer) {
            this.answer = answer;
        }

        @Override
        public HttpAnswer exchange(HttpAttempt attempt) {
            attempts.add(attempt);
            return answer;
        }

        @Override
        public InputStream body(HttpAnswer.Response response, Duration readTimeout) {
            readTimeouts.add(readTimeout);
            if (readTimeout != null && response.firstByte().compareTo(readTimeout) > 0) {
                return new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw new SocketTimeoutException("Read timed out");
                    }
                };
            }
            return new ByteArrayInputStream(response.body());
        }

        @Override
        public Clock clock() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void sleep(Duration duration, String sdk) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Scope op(String op) {
            throw new UnsupportedOperationException();
        }
    }

    private static HttpAnswer.Response ok(String body, Duration firstByte) {
        return new HttpAnswer.Response(0, 200, Map.of("content-type", List.of("application/json")),
                body.getBytes(StandardCharsets.UTF_8), firstByte);
    }

    private static HttpRequest request(Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.builder().method(HttpMethod.POST).baseUrl("https://api.openai.com/v1")
                .addPathSegments("chat", "completions").body(json("{\"model\":\"m\"}"));
        headers.forEach(b::putHeader);
        return b.build();
    }

    private static HttpRequestBody json(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new HttpRequestBody() {
            @Override
            public void writeTo(OutputStream out) {
                try {
                    out.write(bytes);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public String contentType() {
                return "application/json";
            }

            @Override
            public long contentLength() {
                return bytes.length;
            }

            @Override
            public boolean repeatable() {
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    private static RequestOptions timeouts(Duration read, Duration request) {
        return RequestOptions.builder().timeout(Timeout.builder().read(read).request(request).build()).build();
    }

    @Test
    void anAttemptWaitsForTheShorterOfTheSdksReadAndRequestTimeouts() {
        Endpoint endpoint = new Endpoint(ok(COMPLETION, Duration.ZERO));
        RunHttpClient client = RunHttpClient.openAiJava(endpoint);
        client.execute(request(Map.of()), timeouts(Duration.ofSeconds(30), Duration.ofSeconds(10)));
        client.execute(request(Map.of()), timeouts(Duration.ofSeconds(5), Duration.ofSeconds(10)));
        assertEquals(List.of(Duration.ofSeconds(10), Duration.ofSeconds(5)),
                endpoint.attempts.stream().map(HttpAttempt::timeout).toList());
        assertEquals(List.of(Duration.ofSeconds(10), Duration.ofSeconds(5)), endpoint.readTimeouts);
    }

    @Test
    void openAiJavasClientNamesTheVersionEachAttemptStatesAndItsRetryNumber() {
        Endpoint endpoint = new Endpoint(ok(COMPLETION, Duration.ZERO));
        RunHttpClient client = RunHttpClient.openAiJava(endpoint);
        client.execute(request(Map.of("X-Stainless-Package-Version", "4.105.0", "X-Stainless-Retry-Count", "1")),
                RequestOptions.none());
        HttpAttempt attempt = endpoint.attempts.get(0);
        assertEquals("openai-java 4.105.0", attempt.sdk());
        assertEquals("openai-java 4.105.0", client.sdk());
        assertEquals(1, attempt.sdkRetry());
        assertEquals("chat/completions", attempt.path());
        assertEquals("{\"model\":\"m\"}", new String(attempt.body(), StandardCharsets.UTF_8));
    }

    @Test
    void aFrameworksClientKeepsItsOwnName() {
        Endpoint endpoint = new Endpoint(ok(COMPLETION, Duration.ZERO));
        RunHttpClient.forFramework(endpoint, "spring-ai-openai 2.0.1 (openai-java 4.49.0)")
                .execute(request(Map.of("X-Stainless-Package-Version", "4.49.0")), RequestOptions.none());
        assertEquals("spring-ai-openai 2.0.1 (openai-java 4.49.0)", endpoint.attempts.get(0).sdk());
    }

    @Test
    void aTimeoutIsTheSdksIoExceptionCausedByASocketTimeout() {
        RunHttpClient client = RunHttpClient.openAiJava(new Endpoint(new HttpAnswer.TimedOut(Duration.ofSeconds(7))));
        OpenAIIoException e = assertThrows(OpenAIIoException.class,
                () -> client.execute(request(Map.of()), RequestOptions.none()));
        SocketTimeoutException cause = assertInstanceOf(SocketTimeoutException.class, e.getCause());
        assertEquals("timeout: no answer in 7000 ms", cause.getMessage());
    }

    @Test
    void aWholeAnswerToAStreamingRequestIsTheEventsAProviderSendsForIt() throws IOException {
        RunHttpClient client = RunHttpClient.openAiJava(new Endpoint(ok(COMPLETION, Duration.ZERO)));
        HttpResponse response = client.execute(request(Map.of("Accept", "text/event-stream")), RequestOptions.none());
        assertEquals(List.of("text/event-stream"), response.headers().values("Content-Type"));
        assertEquals(new String(ChunkStreams.wire(COMPLETION.getBytes(StandardCharsets.UTF_8), false),
                StandardCharsets.UTF_8), new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void aLateWholeAnswerIsATimeoutBeforeHeadersForAFrameworkAndALateBodyForOpenAiJava() {
        Endpoint endpoint = new Endpoint(ok(COMPLETION, Duration.ofSeconds(5)));
        RequestOptions twoSeconds = timeouts(Duration.ofSeconds(2), Duration.ofSeconds(2));

        OpenAIIoException beforeHeaders = assertThrows(OpenAIIoException.class,
                () -> RunHttpClient.forFramework(endpoint, "framework").execute(request(Map.of()), twoSeconds));
        assertInstanceOf(SocketTimeoutException.class, beforeHeaders.getCause());

        HttpResponse late = RunHttpClient.openAiJava(endpoint).execute(request(Map.of()), twoSeconds);
        assertEquals(200, late.statusCode());
        assertThrows(SocketTimeoutException.class, () -> late.body().read());
    }
}
