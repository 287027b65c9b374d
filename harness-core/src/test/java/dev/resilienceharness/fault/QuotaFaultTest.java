package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class QuotaFaultTest {

    private static final Reply RECORDED = Reply.of(JsonNodeFactory.instance.objectNode().put("done", "plan"));

    @Test
    void a_rejection_with_the_header_carries_its_text_and_delay() {
        QuotaExhausted e = assertThrows(QuotaExhausted.class, () -> new QuotaFault("1.5").strike("plan", RECORDED));
        assertEquals("1.5", e.retryAfter());
        assertEquals(Optional.of(Duration.ofMillis(1500)), e.delay(VirtualClock.EPOCH));
    }

    @Test
    void a_rejection_without_the_header_carries_no_text_and_no_delay() {
        QuotaExhausted e = assertThrows(QuotaExhausted.class, () -> new QuotaFault(null).strike("plan", RECORDED));
        assertNull(e.retryAfter());
        assertEquals(Optional.empty(), e.delay(VirtualClock.EPOCH));
    }

    @Test
    void an_unreadable_header_is_kept_as_text_but_states_no_delay() {
        QuotaExhausted e = assertThrows(QuotaExhausted.class, () -> new QuotaFault("soon").strike("plan", RECORDED));
        assertEquals("soon", e.retryAfter());
        assertEquals(Optional.empty(), e.delay(VirtualClock.EPOCH));
    }

    @Test
    void bare_quota_is_written_as_its_name_and_with_a_header_as_a_mapping() {
        assertEquals("quota", new QuotaFault(null).kind());
        assertEquals("quota", new QuotaFault(null).toYaml());
        assertEquals(Map.of("quota", Map.of("retry_after", "2")), new QuotaFault("2").toYaml());
    }
}
