package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.trace.ToolRecord;
import dev.resilienceharness.trace.ToolRecord.Result;
import org.junit.jupiter.api.Test;

class ToolMessagesTest {

    private static ToolRecord first(String fault, Result result, String server) {
        return new ToolRecord(0, "resolve", 1, "refund", "{\"order\":7}", "08d5cca4a1e25d39", null, fault, result, true,
                "the loop", 0, 0, 0, 0, false, server, null);
    }

    @Test
    void aRetryAfterATimeoutKeepsItsHintForLocalAndMcpTools() {
        String timeout = "Never retry a side-effecting tool blindly after a timeout: pass an idempotency key the tool"
                + " honours (tools.<name>.idempotency_key), or check whether the first execution took effect before"
                + " running it again";
        assertEquals(timeout, ToolMessages.retryHint(first("timeout_after_commit", Result.TIMEOUT, null)));
        assertEquals(timeout, ToolMessages.retryHint(first("timeout", Result.TIMEOUT, "billing")));
    }

    @Test
    void aRetryAfterALostSessionOrAnExitedServerNamesWhatHappenedAndHowToLook() {
        assertEquals("Never run a side-effecting tool again blindly after its MCP session was lost (session_expired):"
                + " the first call may have taken effect before the server dropped the session. Look with a read tool"
                + " of MCP server 'billing' whether the first call took effect, or pass an idempotency key the tool"
                + " honours (tools.<name>.idempotency_key), before running it again",
                ToolMessages.retryHint(first("session_expired", Result.ERROR, "billing")));
        assertEquals("Never run a side-effecting tool again blindly after its MCP server exited (server_exit): the"
                + " first call may have taken effect before the server went. Look with a read tool of MCP server"
                + " 'billing' whether the first call took effect, or pass an idempotency key the tool honours"
                + " (tools.<name>.idempotency_key), before running it again",
                ToolMessages.retryHint(first("server_exit", Result.ERROR, "billing")));
    }

    @Test
    void aRetryAfterAThrowOrAnAnswerSaysSoInsteadOfATimeout() {
        assertEquals("Never run a side-effecting tool again blindly after it threw: it may have taken effect before it"
                + " failed. Check whether the first execution took effect, or pass an idempotency key the tool honours"
                + " (tools.<name>.idempotency_key), before running it again",
                ToolMessages.retryHint(first("none", Result.ERROR, null)));
        String answered = "Never run a side-effecting tool again after it answered: it took effect. Use its first"
                + " answer, or pass an idempotency key the tool honours (tools.<name>.idempotency_key), so that running"
                + " it again does not repeat the effect";
        assertEquals(answered, ToolMessages.retryHint(first("none", Result.OK, null)));
        assertEquals(answered, ToolMessages.retryHint(first("invalid_result", Result.INVALID_RESULT, "billing")));
    }
}
