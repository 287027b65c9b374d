package dev.resilienceharness.transport;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** {@link Transport#send} on a transport that only implements {@code call}, as a team's own would. */
class TransportSendTest {

    private static final ObjectNode PAYLOAD = JsonNodeFactory.instance.objectNode().put("op", "plan");

    @Test
    void the_reply_or_the_very_failure_call_threw_comes_back_as_a_value() {
        Reply reply = Reply.of(JsonNodeFactory.instance.objectNode().put("done", "plan"));
        Transport answering = payload -> reply;
        assertSame(reply, answering.send(PAYLOAD));
        for (CallFailure failure : new CallFailure[] {TransientError.timeout(), TransientError.status(503),
                new QuotaExhausted("2"), new BadToolCall("arguments are not JSON")}) {
            Transport failing = payload -> {
                throw failure;
            };
            assertSame(failure, failing.send(PAYLOAD));
        }
    }

    @Test
    void a_recycled_process_is_still_thrown() {
        Transport crashing = payload -> {
            throw new ProcessRecycled("plan");
        };
        assertThrows(ProcessRecycled.class, () -> crashing.send(PAYLOAD));
    }
}
