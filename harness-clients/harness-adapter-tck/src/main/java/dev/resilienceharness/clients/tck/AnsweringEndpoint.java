package dev.resilienceharness.clients.tck;

import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * An endpoint that answers every attempt 200 with the JSON {@code answer} gives for it, and keeps each attempt: how an
 * adapter test captures what its SDK sends for a request before writing that request's cassette. Nothing waits on it.
 */
public final class AnsweringEndpoint implements HttpEndpoint {

    private final Function<HttpAttempt, String> answer;
    private final List<HttpAttempt> seen = Collections.synchronizedList(new ArrayList<>());

    public AnsweringEndpoint(Function<HttpAttempt, String> answer) {
        this.answer = answer;
    }

    /** Every attempt answered so far, in order. */
    public List<HttpAttempt> seen() {
        return List.copyOf(seen);
    }

    @Override
    public HttpAnswer exchange(HttpAttempt attempt) {
        seen.add(attempt);
        return new HttpAnswer.Response(0, 200, Map.of("Content-Type", List.of("application/json")),
                answer.apply(attempt).getBytes(StandardCharsets.UTF_8), Duration.ZERO);
    }

    @Override
    public InputStream body(HttpAnswer.Response response, Duration readTimeout) {
        return new ByteArrayInputStream(response.body());
    }

    @Override
    public Clock clock() {
        return Clock.systemUTC();
    }

    @Override
    public void sleep(Duration duration, String sdk) {
        throw new AssertionError("no wait expected");
    }

    @Override
    public Scope op(String op) {
        return () -> { };
    }
}
