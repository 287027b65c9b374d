package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.TransientError;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class MalformedEventFaultTest {

    @Test
    void through_a_transport_it_is_a_transient_failure_naming_the_events_that_arrived() {
        TransientError e = assertThrows(TransientError.class,
                () -> new MalformedEventFault(2).strike("plan", Reply.of(JsonNodeFactory.instance.objectNode())));
        assertEquals("malformed_event", e.streamFault());
        assertEquals(2, e.streamEvents());
        assertEquals(false, e.isTimeout(), "a broken stream is no timeout");
        assertEquals(0, e.status());
    }

    @Test
    void a_negative_count_is_refused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MalformedEventFault(-1));
        assertEquals("at must not be negative, was -1", e.getMessage());
    }

    @Test
    void is_written_as_a_mapping_with_its_settings() {
        assertEquals("malformed_event", new MalformedEventFault(2).kind());
        assertEquals(Map.of("malformed_event", Map.of("at", 2)), new MalformedEventFault(2).toYaml());
        assertEquals(2, new MalformedEventFault(2).afterEvents());
    }
}
