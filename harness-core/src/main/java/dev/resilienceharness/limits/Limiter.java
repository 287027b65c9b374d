package dev.resilienceharness.limits;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.ProviderLimits;
import dev.resilienceharness.transport.QuotaExhausted;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One rate-limited endpoint on the virtual clock: admits or refuses each call by the {@code provider_limits} windows
 * (the last 60 s of virtual time), the run's token quota and the calls in flight. It reads nothing but the times and
 * tokens it is given, so the same calls get the same answers every run. Thread-safe; calls must come in order of
 * virtual time, as one scenario's do and as a shared endpoint's scheduler hands them over.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class Limiter {

    /** The length of a window. */
    public static final long WINDOW_NANOS = 60_000_000_000L;

    private final ProviderLimits limits;
    private final Deque<Admitted> window = new ArrayDeque<>();
    private final Deque<Admitted> inFlight = new ArrayDeque<>();
    private long windowTokens;
    private long spent;

    private record Admitted(long atNanos, long endNanos, long tokens) {
    }

    public Limiter(ProviderLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    public ProviderLimits limits() {
        return limits;
    }

    /** Tokens the endpoint's answered calls have spent so far. */
    public synchronized long spent() {
        return spent;
    }

    /**
     * Admits a call at {@code atNanos} whose answer spends {@code tokens} and takes {@code durationNanos} to arrive, or
     * refuses it.
     *
     * @return {@code null} when the call is admitted (and counted), else how it is refused
     */
    public synchronized Refusal admit(long atNanos, long durationNanos, Tokens tokens) {
        evict(atNanos);
        if (limits.tokenQuota() != null && spent >= limits.tokenQuota()) {
            return new Refusal(QuotaExhausted.Kind.INSUFFICIENT_QUOTA, null, headers(atNanos, null),
                    LimitMessages.quotaSpent(spent, limits.tokenQuota()));
        }
        long wait = 0;
        String which = null;
        if (limits.requestsPerMinute() != null && window.size() >= limits.requestsPerMinute()) {
            wait = requestsReset(atNanos);
            which = LimitMessages.requests(limits.requestsPerMinute());
        }
        if (limits.tokensPerMinute() != null && windowTokens > 0
                && windowTokens + tokens.total() > limits.tokensPerMinute()) {
            long w = tokensReset(atNanos, tokens.total());
            if (w > wait) {
                wait = w;
            }
            which = which == null ? LimitMessages.tokens(limits.tokensPerMinute())
                    : which + " and " + LimitMessages.tokens(limits.tokensPerMinute());
        }
        if (limits.maxConcurrency() != null && inFlight.size() >= limits.maxConcurrency()) {
            long w = inFlight.stream().mapToLong(Admitted::endNanos).min().orElse(atNanos) - atNanos;
            if (w > wait) {
                wait = w;
            }
            which = which == null ? LimitMessages.concurrency(limits.maxConcurrency())
                    : which + " and " + LimitMessages.concurrency(limits.maxConcurrency());
        }
        if (which != null) {
            // A refusal always states a delay of at least a millisecond, so a loop that waits it moves on.
            long millis = Math.max(1, ceilMillis(wait));
            String retryAfter = seconds(millis);
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Retry-After", retryAfter);
            headers.put("retry-after-ms", Long.toString(millis));
            headers.putAll(headers(atNanos, tokens));
            return new Refusal(QuotaExhausted.Kind.RATE_LIMIT, retryAfter, headers,
                    LimitMessages.rateLimited(which, retryAfter));
        }
        Admitted a = new Admitted(atNanos, atNanos + Math.max(0, durationNanos), tokens.total());
        window.addLast(a);
        windowTokens += a.tokens();
        if (durationNanos > 0) {
            inFlight.addLast(a);
        }
        spent += a.tokens();
        return null;
    }

    /** The {@code x-ratelimit-*} headers an answer at {@code atNanos} carries, as OpenAI sends them. */
    public synchronized Map<String, String> headers(long atNanos) {
        evict(atNanos);
        return headers(atNanos, null);
    }

    private Map<String, String> headers(long atNanos, Tokens asked) {
        Map<String, String> h = new LinkedHashMap<>();
        if (limits.requestsPerMinute() != null) {
            int rpm = limits.requestsPerMinute();
            h.put("x-ratelimit-limit-requests", Integer.toString(rpm));
            h.put("x-ratelimit-remaining-requests", Long.toString(Math.max(0, rpm - window.size())));
            h.put("x-ratelimit-reset-requests", ResetText.of(window.isEmpty() ? 0 : requestsReset(atNanos)));
        }
        if (limits.tokensPerMinute() != null) {
            long tpm = limits.tokensPerMinute();
            h.put("x-ratelimit-limit-tokens", Long.toString(tpm));
            h.put("x-ratelimit-remaining-tokens", Long.toString(Math.max(0, tpm - windowTokens)));
            h.put("x-ratelimit-reset-tokens", ResetText.of(asked != null ? tokensReset(atNanos, asked.total())
                    : tokensEmpty(atNanos)));
        }
        return h;
    }

    private void evict(long atNanos) {
        while (!window.isEmpty() && window.peekFirst().atNanos() + WINDOW_NANOS <= atNanos) {
            windowTokens -= window.removeFirst().tokens();
        }
        inFlight.removeIf(a -> a.endNanos() <= atNanos);
    }

    /** Nanoseconds until the window admits one more request. */
    private long requestsReset(long atNanos) {
        int excess = window.size() - limits.requestsPerMinute();
        int k = 0;
        for (Admitted a : window) {
            if (k++ >= excess) {
                return a.atNanos() + WINDOW_NANOS - atNanos;
            }
        }
        return 0;
    }

    /** Nanoseconds until the window has room for {@code asked} more tokens, or is empty. */
    private long tokensReset(long atNanos, long asked) {
        long left = windowTokens;
        for (Admitted a : window) {
            if (left == 0 || left + asked <= limits.tokensPerMinute()) {
                break;
            }
            left -= a.tokens();
            if (left == 0 || left + asked <= limits.tokensPerMinute()) {
                return a.atNanos() + WINDOW_NANOS - atNanos;
            }
        }
        return 0;
    }

    /** Nanoseconds until every token in the window has left it. */
    private long tokensEmpty(long atNanos) {
        long last = -1;
        for (Admitted a : window) {
            if (a.tokens() > 0) {
                last = a.atNanos();
            }
        }
        return last < 0 ? 0 : last + WINDOW_NANOS - atNanos;
    }

    private static long ceilMillis(long nanos) {
        return (nanos + 999_999) / 1_000_000;
    }

    /** Milliseconds as a {@code Retry-After} text in seconds: {@code 60}, {@code 29.5}. */
    static String seconds(long millis) {
        return BigDecimal.valueOf(millis).movePointLeft(3).stripTrailingZeros().toPlainString();
    }
}
