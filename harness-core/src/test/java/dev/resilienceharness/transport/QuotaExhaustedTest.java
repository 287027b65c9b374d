package dev.resilienceharness.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.resilienceharness.clock.VirtualClock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QuotaExhaustedTest {

    @Test
    void carries_the_retry_after_text_and_its_delay() {
        QuotaExhausted e = new QuotaExhausted("2");
        assertEquals("2", e.retryAfter());
        assertEquals(Optional.of(Duration.ofSeconds(2)), e.delay(VirtualClock.EPOCH));
        assertEquals("quota_exhausted", e.getMessage());
    }

    @Test
    void without_the_header_states_no_delay() {
        QuotaExhausted e = new QuotaExhausted(null);
        assertNull(e.retryAfter());
        assertEquals(Optional.empty(), e.delay(VirtualClock.EPOCH));
    }

    @Test
    void retry_after_ms_wins_over_retry_after() {
        QuotaExhausted e = new QuotaExhausted("60", Duration.ofMillis(250));
        assertEquals(Optional.of(Duration.ofMillis(250)), e.delay(VirtualClock.EPOCH));
        assertEquals("60", e.retryAfter(), "the outcome record still shows the header text");
    }

    @Test
    void retry_after_ms_alone_states_the_delay() {
        assertEquals(Optional.of(Duration.ofMillis(1500)),
                new QuotaExhausted(null, Duration.ofMillis(1500)).delay(VirtualClock.EPOCH));
    }

    @Test
    void an_http_date_is_read_against_the_clock_given() {
        QuotaExhausted e = new QuotaExhausted("Thu, 01 Jan 2026 00:00:10 GMT");
        assertEquals(Optional.of(Duration.ofSeconds(10)), e.delay(VirtualClock.EPOCH));
        assertEquals(Optional.of(Duration.ofSeconds(4)), e.delay(VirtualClock.EPOCH.plusSeconds(6)));
    }

    @Test
    void aQuotaCarriesItsKindAndAScriptedOneIsOfUnknownKind() {
        assertEquals(QuotaExhausted.Kind.QUOTA, new QuotaExhausted("2").kind());
        assertEquals(QuotaExhausted.Kind.RATE_LIMIT, new QuotaExhausted(QuotaExhausted.Kind.RATE_LIMIT, "2").kind());
        QuotaExhausted spent = new QuotaExhausted(QuotaExhausted.Kind.INSUFFICIENT_QUOTA, null);
        assertEquals(java.util.Optional.empty(), spent.delay(java.time.Instant.EPOCH));
        assertEquals(null, spent.retryAfter());
    }
}
