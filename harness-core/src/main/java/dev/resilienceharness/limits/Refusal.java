package dev.resilienceharness.limits;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.QuotaExhausted;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A call the limits refused, as a provider answers it: a 429 with the error code of its kind and the headers
 * computed from the windows.
 *
 * @param kind       {@link QuotaExhausted.Kind#RATE_LIMIT} or {@link QuotaExhausted.Kind#INSUFFICIENT_QUOTA}
 * @param retryAfter the {@code Retry-After} text (seconds, a fraction allowed), {@code null} for the quota
 * @param headers    {@code Retry-After}, {@code retry-after-ms} and the {@code x-ratelimit-*} headers, in order
 * @param message    the error message of the 429's body
 */
@API(status = INTERNAL, since = "0.1.0")
public record Refusal(QuotaExhausted.Kind kind, String retryAfter, Map<String, String> headers, String message) {

    public Refusal {
        headers = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(headers));
    }

    /** The error code of the 429's body, as OpenAI writes it. */
    public String code() {
        return kind == QuotaExhausted.Kind.INSUFFICIENT_QUOTA ? "insufficient_quota" : "rate_limit_exceeded";
    }

    /** This refusal as the failure a loop sees through {@code Transport}. */
    public QuotaExhausted failure() {
        return new QuotaExhausted(kind, retryAfter);
    }
}
