package dev.resilienceharness.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.resilienceharness.config.ProviderLimits;
import dev.resilienceharness.transport.QuotaExhausted;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LimiterTest {

    private static final long S = 1_000_000_000L;
    private static final Tokens T100 = new Tokens(60, 40);

    @Test
    void aFullRequestWindowRefusesUntilItsOldestCallIsAMinuteOld() {
        Limiter l = new Limiter(new ProviderLimits(2, null, null, null, null));
        assertNull(l.admit(0, 0, T100));
        assertNull(l.admit(10 * S, 0, T100));
        Refusal r = l.admit(20 * S, 0, T100);
        assertEquals(QuotaExhausted.Kind.RATE_LIMIT, r.kind());
        assertEquals("40", r.retryAfter());
        assertEquals("rate_limit_exceeded", r.code());
        assertEquals(Map.of("Retry-After", "40", "retry-after-ms", "40000", "x-ratelimit-limit-requests", "2",
                "x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "40s"), r.headers());
        assertEquals("Rate limit reached: requests_per_minute (2); try again in 40s", r.message());
        // The window is (now - 60 s, now]: the call made at 0 has left it at exactly 60 s.
        assertNull(l.admit(60 * S, 0, T100));
        assertEquals("10", l.admit(60 * S, 0, T100).retryAfter());
    }

    @Test
    void aTokenWindowCountsAnsweredTokensAndStatesWhenThereIsRoom() {
        Limiter l = new Limiter(new ProviderLimits(null, 250, null, null, null));
        assertNull(l.admit(0, 0, T100));
        assertNull(l.admit(S / 2, 0, T100));
        Refusal r = l.admit(S, 0, T100);
        // 200 in the window plus 100 asked is over 250; once the first call leaves, 100 + 100 fits.
        assertEquals("59", r.retryAfter());
        assertEquals("250", r.headers().get("x-ratelimit-limit-tokens"));
        assertEquals("50", r.headers().get("x-ratelimit-remaining-tokens"));
        assertEquals("59s", r.headers().get("x-ratelimit-reset-tokens"));
        assertNull(l.admit(60 * S, 0, T100));
    }

    @Test
    void oneCallLargerThanTheTokenWindowGoesThroughAloneSoNoLoopWaitsForever() {
        Limiter l = new Limiter(new ProviderLimits(null, 50, null, null, null));
        assertNull(l.admit(0, 0, T100));
        assertEquals("59", l.admit(S, 0, T100).retryAfter());
        assertNull(l.admit(60 * S, 0, T100));
    }

    @Test
    void theCallThatCrossesTheQuotaIsAnsweredAndTheNextIsRefusedWithoutRetryAfter() {
        Limiter l = new Limiter(new ProviderLimits(null, null, 150L, null, null));
        assertNull(l.admit(0, 0, T100));
        assertNull(l.admit(0, 0, T100));
        Refusal r = l.admit(0, 0, T100);
        assertEquals(QuotaExhausted.Kind.INSUFFICIENT_QUOTA, r.kind());
        assertEquals("insufficient_quota", r.code());
        assertNull(r.retryAfter());
        assertNull(r.headers().get("Retry-After"));
        assertEquals("You exceeded your current quota: 200 of token_quota 150 tokens spent", r.message());
        assertEquals(QuotaExhausted.Kind.INSUFFICIENT_QUOTA, r.failure().kind());
        // Waiting does not bring it back.
        assertEquals(QuotaExhausted.Kind.INSUFFICIENT_QUOTA, l.admit(3600 * S, 0, T100).kind());
        assertEquals(200, l.spent());
    }

    @Test
    void concurrencyCountsCallsWhoseAnswersAreStillOnTheirWay() {
        Limiter l = new Limiter(new ProviderLimits(null, null, null, 1, null));
        assertNull(l.admit(0, 2 * S, T100));
        Refusal r = l.admit(S / 2, 0, T100);
        assertEquals("1.5", r.retryAfter());
        assertEquals("Rate limit reached: max_concurrency (1); try again in 1.5s", r.message());
        assertNull(l.admit(2 * S, 0, T100));
        // Calls that take no virtual time never overlap.
        assertNull(l.admit(2 * S, 0, T100));
    }

    @Test
    void answersCarryTheWindowsHeaders() {
        Limiter l = new Limiter(new ProviderLimits(60, 10_000, null, null, null));
        l.admit(0, 0, T100);
        assertEquals(Map.of("x-ratelimit-limit-requests", "60", "x-ratelimit-remaining-requests", "59",
                "x-ratelimit-reset-requests", "1m0s", "x-ratelimit-limit-tokens", "10000",
                "x-ratelimit-remaining-tokens", "9900", "x-ratelimit-reset-tokens", "1m0s"), l.headers(0));
    }

    @Test
    void theSameCallsGetTheSameAnswers() {
        ProviderLimits limits = new ProviderLimits(3, 250, 1000L, 2, null);
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (StringBuilder out : new StringBuilder[] {a, b}) {
            Limiter l = new Limiter(limits);
            for (int i = 0; i < 40; i++) {
                Refusal r = l.admit(i * 7 * S, (i % 3) * S, T100);
                out.append(r == null ? "ok" : r.kind() + " " + r.retryAfter()).append(';');
            }
        }
        assertEquals(a.toString(), b.toString());
    }
}
