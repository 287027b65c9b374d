package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.TransientError;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.JsonNodeFactory;

class ServerErrorFaultTest {

    private static final Reply RECORDED = Reply.of(JsonNodeFactory.instance.objectNode().put("done", "plan"));

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 599})
    void accepts_every_5xx_status(int status) {
        assertEquals(status, new ServerErrorFault(status).status());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 429, 499, 600, -503})
    void refuses_a_status_outside_500_to_599_naming_it(int status) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ServerErrorFault(status));
        assertEquals("server_error status must be 500-599, was " + status, e.getMessage());
    }

    @Test
    void the_call_fails_with_a_retryable_error_carrying_the_status() {
        TransientError e = assertThrows(TransientError.class, () -> new ServerErrorFault(502).strike("plan", RECORDED));
        assertEquals(502, e.status());
        assertFalse(e.isTimeout());
        assertEquals("server_error 502", e.getMessage());
    }

    @Test
    void is_written_as_a_mapping_with_its_status() {
        assertEquals("server_error", new ServerErrorFault(504).kind());
        assertEquals(Map.of("server_error", Map.of("status", 504)), new ServerErrorFault(504).toYaml());
        assertEquals(503, ServerErrorFault.DEFAULT_STATUS);
    }
}
