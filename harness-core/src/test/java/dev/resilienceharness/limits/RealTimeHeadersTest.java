package dev.resilienceharness.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RealTimeHeadersTest {

    private static Map<String, String> refused() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Retry-After", "30");
        h.put("retry-after-ms", "30000");
        h.put("x-ratelimit-limit-requests", "2");
        h.put("x-ratelimit-remaining-requests", "0");
        h.put("x-ratelimit-reset-requests", "30s");
        h.put("x-ratelimit-limit-tokens", "10000");
        h.put("x-ratelimit-remaining-tokens", "9850");
        h.put("x-ratelimit-reset-tokens", "1m0s");
        return h;
    }

    @Test
    void scalesRetryAfterAndBothResetsByTheTimeFactorAndKeepsTheCounts() {
        Map<String, String> h = RealTimeHeaders.scaled(refused(), 0.01);
        assertEquals("0.3", h.get("Retry-After"));
        assertEquals("300", h.get("retry-after-ms"));
        assertEquals("300ms", h.get("x-ratelimit-reset-requests"));
        assertEquals("600ms", h.get("x-ratelimit-reset-tokens"));
        assertEquals("2", h.get("x-ratelimit-limit-requests"));
        assertEquals("0", h.get("x-ratelimit-remaining-requests"));
        assertEquals("9850", h.get("x-ratelimit-remaining-tokens"));
        assertEquals(List.copyOf(refused().keySet()), List.copyOf(h.keySet()), "the order is kept");
    }

    @Test
    void aFactorAboveOneStretchesTheResetsIntoMinutes() {
        Map<String, String> h = RealTimeHeaders.scaled(refused(), 10);
        assertEquals("5m0s", h.get("x-ratelimit-reset-requests"));
        assertEquals("10m0s", h.get("x-ratelimit-reset-tokens"));
        assertEquals("300", h.get("Retry-After"));
    }

    @Test
    void anAdmittedAnswersHeadersHaveNoRetryAfterToScale() {
        Map<String, String> admitted = new LinkedHashMap<>(refused());
        admitted.remove("Retry-After");
        admitted.remove("retry-after-ms");
        admitted.put("x-ratelimit-reset-requests", "0ms");
        Map<String, String> h = RealTimeHeaders.scaled(admitted, 0.5);
        assertEquals(null, h.get("Retry-After"));
        assertEquals("0ms", h.get("x-ratelimit-reset-requests"));
        assertEquals("30s", h.get("x-ratelimit-reset-tokens"));
    }

    @Test
    void aFactorOfOneOrZeroLeavesTheHeadersAsTheyAre() {
        Map<String, String> h = refused();
        assertSame(h, RealTimeHeaders.scaled(h, 1.0));
        assertSame(h, RealTimeHeaders.scaled(h, 0));
    }
}
