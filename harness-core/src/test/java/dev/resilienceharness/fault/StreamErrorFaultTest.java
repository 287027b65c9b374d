package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.TransientError;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class StreamErrorFaultTest {

    @Test
    void through_a_transport_it_is_a_transient_failure_naming_the_events_that_arrived() {
        TransientError e = assertThrows(TransientError.class,
                () -> new StreamErrorFault(4).strike("plan", Reply.of(JsonNodeFactory.instance.objectNode())));
        assertEquals("stream_error", e.streamFault());
        assertEquals(4, e.streamEvents());
        assertEquals(false, e.isTimeout(), "a broken stream is no timeout");
        assertEquals(0, e.status());
    }

    @Test
    void a_negative_count_is_refused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new StreamErrorFault(-2));
        assertEquals("after_events must not be negative, was -2", e.getMessage());
    }

    @Test
    void is_written_as_a_mapping_with_its_settings() {
        assertEquals("stream_error", new StreamErrorFault(4).kind());
        assertEquals(Map.of("stream_error", Map.of("after_events", 4)), new StreamErrorFault(4).toYaml());
        assertEquals(4, new StreamErrorFault(4).afterEvents());
    }

    @Test
    void names_the_providers_error_event_when_given_one() {
        StreamErrorFault fault = new StreamErrorFault(3, StreamErrorFault.Event.API_ERROR);
        assertEquals(Map.of("stream_error", Map.of("after_events", 3, "error", "api_error")), fault.toYaml());
        assertEquals(null, new StreamErrorFault(3).error(), "the API's usual error event");
        assertEquals(StreamErrorFault.Event.RESPONSE_FAILED, StreamErrorFault.Event.of("response.failed"));
        assertEquals(StreamErrorFault.Event.RESOURCE_EXHAUSTED, StreamErrorFault.Event.of("RESOURCE_EXHAUSTED"),
                "Gemini's, as Google writes its status");
        assertEquals(java.util.List.of("overloaded_error", "api_error", "response.failed", "RESOURCE_EXHAUSTED",
                "INTERNAL", "UNAVAILABLE", "throttlingException", "modelStreamErrorException"),
                StreamErrorFault.Event.yamlNames());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StreamErrorFault.Event.of("overloaded"));
        assertEquals("error is one of overloaded_error, api_error, response.failed, RESOURCE_EXHAUSTED, INTERNAL,"
                + " UNAVAILABLE, throttlingException, modelStreamErrorException, not overloaded", e.getMessage());
        assertEquals(StreamErrorFault.Event.THROTTLING_EXCEPTION, StreamErrorFault.Event.of("throttlingException"));
        assertEquals(Map.of("stream_error", Map.of("after_events", 2, "error", "modelStreamErrorException")),
                new StreamErrorFault(2, StreamErrorFault.Event.MODEL_STREAM_ERROR_EXCEPTION).toYaml());
    }
}
