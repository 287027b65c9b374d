package dev.resilienceharness.transport;

import java.time.Duration;

/** The provider said stop (HTTP 429). Carries the {@code Retry-After} header text when the header was present. */
public final class QuotaExhausted extends CallFailure {

    private final String retryAfter;
    private final Duration retryAfterMs;

    /** @param retryAfter the {@code Retry-After} header text, or {@code null} when absent */
    public QuotaExhausted(String retryAfter) {
        this(retryAfter, null);
    }

    /**
     * @param retryAfter   the {@code Retry-After} header text, or {@code null} when absent
     * @param retryAfterMs a live response's {@code retry-after-ms} header, which wins over {@code Retry-After}
     */
    public QuotaExhausted(String retryAfter, Duration retryAfterMs) {
        super("quota_exhausted");
        this.retryAfter = retryAfter;
        this.retryAfterMs = retryAfterMs;
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
