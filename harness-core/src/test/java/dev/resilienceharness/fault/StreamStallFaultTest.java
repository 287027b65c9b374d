package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.TransientError;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class StreamStallFaultTest {

    @Test
    void through_a_transport_it_is_a_transient_failure_naming_the_events_that_arrived() {
        TransientError e = assertThrows(TransientError.class,
                () -> new StreamStallFault(2, 90_000).strike("plan", Reply.of(JsonNodeFactory.instance.objectNode())));
        assertEquals("stream_stall", e.streamFault());
        assertEquals(2, e.streamEvents());
        assertEquals(false, e.isTimeout(), "a broken stream is no timeout");
        assertEquals(0, e.status());
    }

    @Test
    void a_negative_count_is_refused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new StreamStallFault(2, -1));
        assertEquals("ms must not be negative, was -1", e.getMessage());
    }

    @Test
    void is_written_as_a_mapping_with_its_settings() {
        assertEquals("stream_stall", new StreamStallFault(2, 90_000).kind());
        assertEquals(Map.of("stream_stall", Map.of("after_events", 2, "ms", 90_000L)), new StreamStallFault(2, 90_000).toYaml());
        assertEquals(2, new StreamStallFault(2, 90_000).afterEvents());
    }
}
