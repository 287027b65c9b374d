package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.json.Json;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FaultAnswerTest {

    @Test
    void keepsHeadersInOrderAndRefusesNegativeDelays() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Retry-After", "2");
        headers.put("retry-after-ms", "2000");
        FaultAnswer a = FaultAnswer.error(429, headers, Json.readTree("{}"));
        assertEquals(List.of("Retry-After", "retry-after-ms"), List.copyOf(a.headers().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> a.headers().put("x", "y"));
        assertThrows(IllegalArgumentException.class, () -> FaultAnswer.ok(Json.readTree("{}"), Duration.ofMillis(-1)));
    }

    @Test
    void scalingChangesOnlyTheDelay() {
        FaultAnswer t = FaultAnswer.timeout(Duration.ofSeconds(10), Json.readTree("{}"));
        FaultAnswer fast = t.scaled(0.01);
        assertEquals(Duration.ofMillis(100), fast.delay());
        assertEquals(504, fast.status());
        assertEquals(FaultAnswer.Outcome.TIMEOUT, fast.outcome());
        assertSame(t, t.scaled(1.0));
        assertEquals(Duration.ZERO, t.scaled(0).delay());
    }
}
