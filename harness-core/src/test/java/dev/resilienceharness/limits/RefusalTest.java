package dev.resilienceharness.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.transport.QuotaExhausted;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import dev.resilienceharness.clock.VirtualClock;
import org.junit.jupiter.api.Test;

class RefusalTest {

    @Test
    void aRateLimitIsAFailureWhoseDelayTheLoopCanWait() {
        Refusal r = new Refusal(QuotaExhausted.Kind.RATE_LIMIT, "2.5", Map.of("Retry-After", "2.5"), "m");
        assertEquals("rate_limit_exceeded", r.code());
        QuotaExhausted e = r.failure();
        assertEquals(QuotaExhausted.Kind.RATE_LIMIT, e.kind());
        assertEquals(Optional.of(Duration.ofMillis(2500)), e.delay(VirtualClock.EPOCH));
    }

    @Test
    void aSpentQuotaStatesNoDelay() {
        QuotaExhausted e = new Refusal(QuotaExhausted.Kind.INSUFFICIENT_QUOTA, null, Map.of(), "m").failure();
        assertEquals(Optional.empty(), e.delay(VirtualClock.EPOCH));
        assertEquals(QuotaExhausted.Kind.INSUFFICIENT_QUOTA, e.kind());
    }
}
