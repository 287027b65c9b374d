package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.TransientError;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class TimeoutFaultTest {

    private static final Reply RECORDED = Reply.of(JsonNodeFactory.instance.objectNode().put("done", "plan"));

    @Test
    void the_call_fails_with_a_retryable_timeout_instead_of_the_recorded_answer() {
        TransientError e = assertThrows(TransientError.class, () -> TimeoutFault.INSTANCE.strike("plan", RECORDED));
        assertTrue(e.isTimeout());
        assertEquals(0, e.status());
        assertEquals("timeout", e.getMessage());
    }

    @Test
    void is_written_as_the_bare_name_timeout() {
        assertEquals("timeout", TimeoutFault.INSTANCE.kind());
        assertEquals("timeout", TimeoutFault.INSTANCE.toYaml());
    }
}
