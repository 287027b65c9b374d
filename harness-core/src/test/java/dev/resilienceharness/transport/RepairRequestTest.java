package dev.resilienceharness.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.resilienceharness.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class RepairRequestTest {

    private static ObjectNode json(String text) {
        return (ObjectNode) Json.readTree(text);
    }

    private static final ObjectNode REQUEST = json("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}");

    @Test
    void a_repair_payload_appends_the_instruction_as_a_user_message_and_carries_the_marker() {
        assertEquals("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"go\"},{\"role\":\"user\","
                + "\"content\":\"valid JSON only\"}],\"repair\":2}",
                Json.compact(RepairRequest.payload(REQUEST, 2, "valid JSON only")));
        assertEquals("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}", Json.compact(REQUEST),
                "the op's request is not changed");
    }

    @Test
    void without_an_instruction_the_payload_is_the_request_plus_the_marker() {
        assertEquals("{\"op\":\"plan\",\"repair\":1}", Json.compact(RepairRequest.payload(json("{\"op\":\"plan\"}"), 1,
                null)));
    }

    @Test
    void a_request_without_messages_gets_a_list_holding_the_instruction() {
        assertEquals("{\"op\":\"plan\",\"messages\":[{\"role\":\"user\",\"content\":\"fix it\"}],\"repair\":1}",
                Json.compact(RepairRequest.payload(json("{\"op\":\"plan\"}"), 1, "fix it")));
    }

    @Test
    void the_provider_is_sent_the_payload_without_the_marker() {
        ObjectNode payload = RepairRequest.payload(REQUEST, 1, "again");
        assertEquals(RepairRequest.withInstruction(REQUEST, "again"), RepairRequest.sent(payload));
        assertEquals(1, payload.get("repair").asInt(), "sent copies; the payload keeps its marker");
    }

    @Test
    void the_original_request_is_found_again_from_what_was_sent() {
        assertEquals(REQUEST, RepairRequest.original(RepairRequest.withInstruction(REQUEST, "again"), "again"));
        ObjectNode plain = json("{\"op\":\"plan\"}");
        assertEquals(plain, RepairRequest.original(RepairRequest.withInstruction(plain, "again"), "again"));
        assertSame(REQUEST, RepairRequest.original(REQUEST, "again"), "no instruction at the end: the request itself");
        assertSame(REQUEST, RepairRequest.original(REQUEST, null));
    }
}
