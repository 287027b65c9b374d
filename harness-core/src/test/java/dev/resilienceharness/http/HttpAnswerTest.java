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

class HttpAnswerTest {

    @Test
    void keepsHeadersInOrderAndRefusesNegativeDelays() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Retry-After", "2");
        headers.put("retry-after-ms", "2000");
        HttpAnswer a = HttpAnswer.error(429, headers, Json.readTree("{}"));
        assertEquals(List.of("Retry-After", "retry-after-ms"), List.copyOf(a.headers().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> a.headers().put("x", "y"));
        assertThrows(IllegalArgumentException.class, () -> HttpAnswer.ok(Json.readTree("{}"), Duration.ofMillis(-1)));
    }

    @Test
    void scalingChangesOnlyTheDelay() {
        HttpAnswer t = HttpAnswer.timeout(Duration.ofSeconds(10), Json.readTree("{}"));
        HttpAnswer fast = t.scaled(0.01);
        assertEquals(Duration.ofMillis(100), fast.delay());
        assertEquals(504, fast.status());
        assertEquals(HttpAnswer.Outcome.TIMEOUT, fast.outcome());
        assertSame(t, t.scaled(1.0));
        assertEquals(Duration.ZERO, t.scaled(0).delay());
    }
}
