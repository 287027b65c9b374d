package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * The provider said stop (HTTP 429). Carries the {@code Retry-After} header text when the header was present, and
 * which 429 it was ({@link #kind()}).
 */
@API(status = STABLE, since = "0.1.0")
public final class QuotaExhausted extends CallFailure {

    /** Which 429 a provider sent. */
    public enum Kind {
        /**
         * A scripted {@code quota} fault, or a live 429 whose kind is not known: the policy's quota rows apply
         * (one retry after an honourable {@code Retry-After}, else stop).
         */
        QUOTA,
        /**
         * A rate-limit window is full ({@code rate_limit_exceeded}): it reopens after the stated {@code Retry-After},
         * and waiting that long is the way on.
         */
        RATE_LIMIT,
        /** The run's token quota is spent ({@code insufficient_quota}): no wait helps; stop, and do not retry. */
        INSUFFICIENT_QUOTA
    }

    private final String retryAfter;
    private final Duration retryAfterMs;
    private final Kind kind;

    /** @param retryAfter the {@code Retry-After} header text, or {@code null} when absent */
    public QuotaExhausted(String retryAfter) {
        this(retryAfter, null);
    }

    /**
     * @param retryAfter   the {@code Retry-After} header text, or {@code null} when absent
     * @param retryAfterMs a live response's {@code retry-after-ms} header, which wins over {@code Retry-After}
     */
    public QuotaExhausted(String retryAfter, Duration retryAfterMs) {
        this(Kind.QUOTA, retryAfter, retryAfterMs);
    }

    /**
     * @param kind       which 429 it was
     * @param retryAfter the {@code Retry-After} header text, or {@code null} when absent
     */
    public QuotaExhausted(Kind kind, String retryAfter) {
        this(kind, retryAfter, null);
    }

    /**
     * @param kind         which 429 it was
     * @param retryAfter   the {@code Retry-After} header text, or {@code null} when absent
     * @param retryAfterMs a live response's {@code retry-after-ms} header, which wins over {@code Retry-After}
     */
    public QuotaExhausted(Kind kind, String retryAfter, Duration retryAfterMs) {
        super("quota_exhausted");
        this.kind = java.util.Objects.requireNonNull(kind, "kind");
        this.retryAfter = retryAfter;
        this.retryAfterMs = retryAfterMs;
    }

    /** Which 429 it was: a rate-limit window, the spent token quota, or a quota of unknown kind. */
    public Kind kind() {
        return kind;
    }

    /** The {@code Retry-After} header text, or {@code null} when the header was absent. */
    public String retryAfter() {
        return retryAfter;
    }

    /** The delay this rejection states, if any, with the virtual clock at {@code now}. */
    public java.util.Optional<Duration> delay(java.time.Instant now) {
        if (retryAfterMs != null) {
            return java.util.Optional.of(retryAfterMs);
        }
        return RetryAfter.parse(retryAfter, now);
    }
}
