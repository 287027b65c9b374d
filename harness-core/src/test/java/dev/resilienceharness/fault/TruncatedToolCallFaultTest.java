package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.Reply;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class TruncatedToolCallFaultTest {

    @Test
    void through_a_transport_it_is_a_schema_failure() {
        BadToolCall e = assertThrows(BadToolCall.class, () -> TruncatedToolCallFault.INSTANCE.strike("plan",
                Reply.of(JsonNodeFactory.instance.objectNode())));
        assertEquals(true, e.getMessage().contains("stop mid-JSON"), e.getMessage());
    }

    @Test
    void is_written_bare() {
        assertEquals("truncated_tool_call", TruncatedToolCallFault.INSTANCE.kind());
        assertEquals("truncated_tool_call", TruncatedToolCallFault.INSTANCE.toYaml());
        assertEquals(-1, TruncatedToolCallFault.INSTANCE.afterEvents());
    }
}
