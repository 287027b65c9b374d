package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.http.AttemptTimeout;
import dev.resilienceharness.http.ChunkStreams;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.scenario.LoopRecorder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * langchain4j's HTTP client SPI on a scenario run: every attempt the model makes, its own retries included, is one
 * {@link HttpEndpoint#exchange} and so one call in the run's trace. No socket is opened.
 *
 * <p>It answers as langchain4j's reference {@code JdkHttpClient} does: a 2xx is a {@link SuccessfulHttpResponse},
 * anything else an {@link HttpException} with the status and body (langchain4j's exception has no room for headers,
 * so a {@code Retry-After} never reaches its retry layer, exactly as in production), and a timeout a
 * {@link TimeoutException} around the JDK's {@link HttpTimeoutException}. A missing cassette is a
 * {@link CassetteMissException} and a failed recording a {@link NonRetriableException} with the harness's message,
 * which langchain4j does not retry. The crash of a scenario's process
 * ({@code ProcessRecycled}, an {@link Error}) passes through untouched.
 */
final class HarnessHttpClient implements HttpClient {

    private final HttpEndpoint endpoint;
    private final Duration readTimeout;
    private final SdkRetries retries;
    private final Supplier<Duration> waited;

    /**
     * @param readTimeout the model's read timeout: how long an attempt waits for its answer ({@link AttemptTimeout};
     *                    langchain4j's clients have no whole-request timeout)
     * @param waited      all harness waiting of the run so far, to tell an SDK retry from a loop's retry
     */
    HarnessHttpClient(HttpEndpoint endpoint, Duration readTimeout, SdkRetries retries, Supplier<Duration> waited) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.readTimeout = AttemptTimeout.of(readTimeout, null);
        this.retries = Objects.requireNonNull(retries, "retries");
        this.waited = Objects.requireNonNull(waited, "waited");
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        return answered(exchange(request));
    }

    private SuccessfulHttpResponse answered(HttpAnswer answer) {
        if (answer instanceof HttpAnswer.TimedOut timedOut) {
            throw new TimeoutException(new HttpTimeoutException(Langchain4jMessages.timedOut(timedOut.after())));
        }
        HttpAnswer.Response response = (HttpAnswer.Response) answer;
        String body = readBody(response);
        if (response.status() < 200 || response.status() >= 300) {
            throw new HttpException(response.status(), body);
        }
        return SuccessfulHttpResponse.builder()
                .statusCode(response.status())
                .headers(response.headers())
                .body(body)
                .build();
    }

    /**
     * The streaming variant, on the calling thread: the answer goes through {@code parser} to {@code listener} before
     * this returns, in the order langchain4j's reference client uses ({@code onOpen}, the events, {@code onClose}; a
     * non-2xx, a timeout or a missing cassette is one {@code onError}). A cassette that kept its stream is replayed event
     * by event; one that holds only the JSON answer is streamed as the events a provider sends for it
     * ({@link ChunkStreams}).
     */
    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        SuccessfulHttpResponse response;
        byte[] events;
        try {
            HttpAnswer answer = exchange(request);
            if (answer instanceof HttpAnswer.Response streamed && streamed.events() != null) {
                // A recorded stream: its events reach the parser one by one, each at its offset on the run's clock,
                // and a cut or a stall past the read timeout is the parser's IOException, which it hands to onError.
                listener.onOpen(SuccessfulHttpResponse.builder().statusCode(streamed.status())
                        .headers(streamed.headers()).build());
                parser.parse(endpoint.body(streamed, readTimeout), listener);
                listener.onClose();
                return;
            }
            response = answered(answer);
            events = ChunkStreams.wire(response.bodyBytes(), ChunkStreams.includesUsage(bodyOf(request)));
        } catch (RuntimeException e) {
            listener.onError(e);
            return;
        }
        listener.onOpen(response);
        parser.parse(new ByteArrayInputStream(events), listener);
        listener.onClose();
    }

    private static byte[] bodyOf(HttpRequest request) {
        return request.body() == null ? new byte[0] : request.body().getBytes(StandardCharsets.UTF_8);
    }

    private HttpAnswer exchange(HttpRequest request) {
        byte[] body = bodyOf(request);
        int sdkRetry = retries.attempt(body, waited.get());
        HttpAttempt attempt = new HttpAttempt(Langchain4jSdk.LABEL, request.method().name(), path(request.url()),
                request.headers(), body, readTimeout, sdkRetry);
        try {
            return endpoint.exchange(attempt);
        } catch (CassetteMiss miss) {
            throw new CassetteMissException(miss);
        } catch (LoopRecorder.RecordingFailed failed) {
            // The provider could not be recorded from: asking again after a real sleep would not help.
            throw new NonRetriableException(failed.getMessage(), failed);
        }
    }

    private String readBody(HttpAnswer.Response response) {
        try {
            return new String(HttpEndpoint.readAll(endpoint.body(response, readTimeout)), StandardCharsets.UTF_8);
        } catch (SocketTimeoutException late) {
            HttpTimeoutException timeout = new HttpTimeoutException(late.getMessage());
            timeout.initCause(late);
            throw new TimeoutException(timeout);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The path of {@code url}, which the attempt normalises ({@code /v1/chat/completions}). */
    static String path(String url) {
        String path = URI.create(url).getRawPath();
        return path == null || path.isEmpty() ? "/" : path;
    }
}
