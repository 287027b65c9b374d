package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * What a provider does with one HTTP request, before any byte is written: answer with a status, headers and a JSON
 * body after a delay; keep the client waiting and then give up; or drop the connection.
 *
 * @param outcome what kind of answer this is
 * @param status  the HTTP status ({@code 504} for a {@link Outcome#TIMEOUT}, {@code 0} for a {@link Outcome#CRASH})
 * @param headers headers to send besides {@code Content-Type}, in order
 * @param body    the JSON body ({@code null} for a crash); a streaming request gets it as server-sent events
 * @param delay   how long before the first token (an answer) or before giving up (a timeout); never negative
 */
@API(status = INTERNAL, since = "0.1.0")
public record FaultAnswer(Outcome outcome, int status, Map<String, String> headers, JsonNode body, Duration delay) {

    /** The three things a provider can do with a request. */
    public enum Outcome {
        /** Answer {@code status} with {@code body}, its first token {@code delay} late. */
        ANSWER,
        /**
         * Send nothing for {@code delay}, then a 504 with {@code body}. A server does exactly that; an in-process
         * client adapter raises its SDK's own I/O timeout instead.
         */
        TIMEOUT,
        /** Close the connection before any byte: the process serving the request died. */
        CRASH
    }

    public FaultAnswer {
        Objects.requireNonNull(outcome, "outcome");
        headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("a delay cannot be negative: " + delay);
        }
    }

    /** A 200 with {@code body}, its first token {@code delay} late. */
    public static FaultAnswer ok(JsonNode body, Duration delay) {
        return new FaultAnswer(Outcome.ANSWER, 200, Map.of(), Objects.requireNonNull(body, "body"), delay);
    }

    /** An error answer, sent at once. */
    public static FaultAnswer error(int status, Map<String, String> headers, JsonNode body) {
        return new FaultAnswer(Outcome.ANSWER, status, new LinkedHashMap<>(headers), body, Duration.ZERO);
    }

    /** {@code delay} of silence, then a 504 with {@code body}. */
    public static FaultAnswer timeout(Duration delay, JsonNode body) {
        return new FaultAnswer(Outcome.TIMEOUT, 504, Map.of(), body, delay);
    }

    /** A connection closed without an answer. */
    public static FaultAnswer crash() {
        return new FaultAnswer(Outcome.CRASH, 0, Map.of(), null, Duration.ZERO);
    }

    /** The same answer with its delay multiplied by {@code factor} (the proxy's time factor). */
    public FaultAnswer scaled(double factor) {
        if (factor == 1.0) {
            return this;
        }
        return new FaultAnswer(outcome, status, headers, body, Duration.ofNanos(Math.round(delay.toNanos() * factor)));
    }
}
