package dev.resilienceharness.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TransientErrorTest {

    @Test
    void a_timeout_has_no_status() {
        TransientError e = TransientError.timeout();
        assertTrue(e.isTimeout());
        assertEquals(0, e.status());
        assertEquals("timeout", e.getMessage());
    }

    @Test
    void a_server_error_carries_its_status() {
        TransientError e = TransientError.status(504);
        assertFalse(e.isTimeout());
        assertEquals(504, e.status());
        assertEquals("server_error 504", e.getMessage());
    }

    @Test
    void is_a_checked_call_failure_a_loop_must_plan_for() {
        Exception e = TransientError.timeout();
        assertTrue(e instanceof CallFailure);
        assertFalse(e instanceof RuntimeException);
    }
}
