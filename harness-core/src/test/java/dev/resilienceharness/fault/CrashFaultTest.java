package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.transport.ProcessRecycled;
import dev.resilienceharness.transport.Reply;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class CrashFaultTest {

    private static final Reply RECORDED = Reply.of(JsonNodeFactory.instance.objectNode().put("done", "plan"));

    @Test
    void the_call_ends_with_the_process_recycled_naming_the_op() {
        ProcessRecycled e = assertThrows(ProcessRecycled.class, () -> CrashFault.INSTANCE.strike("plan", RECORDED));
        assertEquals("runner process recycled during a call for op 'plan'", e.getMessage());
    }

    @Test
    void a_loops_catch_of_exception_cannot_swallow_it() {
        boolean caughtAsException = false;
        boolean escaped = false;
        try {
            try {
                CrashFault.INSTANCE.strike("plan", RECORDED);
            } catch (Exception e) {
                caughtAsException = true;
            }
        } catch (ProcessRecycled e) {
            escaped = true;
        }
        assertFalse(caughtAsException);
        assertTrue(escaped);
        assertTrue(Error.class.isAssignableFrom(ProcessRecycled.class));
    }

    @Test
    void is_written_as_the_bare_name_crash() {
        assertEquals("crash", CrashFault.INSTANCE.kind());
        assertEquals("crash", CrashFault.INSTANCE.toYaml());
    }
}
