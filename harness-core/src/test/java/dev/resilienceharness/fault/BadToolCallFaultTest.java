package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.Reply;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class BadToolCallFaultTest {

    @Test
    void the_answer_is_replaced_by_a_schema_failure_naming_the_op() {
        Reply recorded = Reply.of(JsonNodeFactory.instance.objectNode().put("done", "patch"));
        BadToolCall e = assertThrows(BadToolCall.class, () -> BadToolCallFault.INSTANCE.strike("patch", recorded));
        assertEquals("injected bad_tool_call for op 'patch'", e.getMessage());
    }

    @Test
    void is_written_as_the_bare_name_bad_tool_call() {
        assertEquals("bad_tool_call", BadToolCallFault.INSTANCE.kind());
        assertEquals("bad_tool_call", BadToolCallFault.INSTANCE.toYaml());
    }
}
