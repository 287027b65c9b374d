package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class MessageStreamsTest {

    private static final String MESSAGE = "{\"id\":\"msg_7\",\"type\":\"message\",\"role\":\"assistant\",\"model\":"
            + "\"claude-sonnet-4-5\",\"content\":[{\"type\":\"text\",\"text\":\"Write the validator, then test it.\"},"
            + "{\"type\":\"tool_use\",\"id\":\"toolu_7\",\"name\":\"write_file\",\"input\":{\"path\":\"A.java\"}}],"
            + "\"stop_reason\":\"tool_use\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":9,\"output_tokens\":20}}";

    @Test
    void aMessageStreamsAsTheApiSendsItAndAddsUpToItselfAgain() throws Exception {
        List<StreamEvent> events = MessageStreams.of(Json.readTree(MESSAGE), 250);
        assertEquals(List.of("message_start", "content_block_start", "content_block_delta", "content_block_delta",
                "content_block_delta", "content_block_stop", "content_block_start", "content_block_delta",
                "content_block_delta", "content_block_stop", "message_delta", "message_stop"), events.stream().map(StreamEvent::event)
                .toList(), "text and tool input in pieces of " + ChunkStreams.PIECE + " characters");
        assertTrue(events.stream().allMatch(e -> e.atMs() == 250));
        JsonNode start = Json.readTree(events.get(0).data()).get("message");
        assertEquals(0, start.get("content").size(), "message_start carries no content yet");
        assertTrue(start.get("stop_reason").isNull());
        assertEquals(Json.readTree(MESSAGE), StreamRecording.assemble(events).completion());
    }

    @Test
    void aToolInputThatIsAStringIsSentAsThoseCharacters() {
        String broken = MESSAGE.replace("{\"path\":\"A.java\"}", "\"{\\\"pa" + BrokenToolCalls.BROKEN_SUFFIX
                .replace("\"", "\\\"") + "\"");
        List<StreamEvent> events = MessageStreams.of(Json.readTree(broken), 0);
        StringBuilder json = new StringBuilder();
        events.stream().map(e -> Json.readTree(e.data())).filter(d -> d.path("index").asInt() == 1)
                .map(d -> d.path("delta").path("partial_json")).filter(JsonNode::isString)
                .forEach(p -> json.append(p.asString()));
        assertEquals("{\"pa" + BrokenToolCalls.BROKEN_SUFFIX, json.toString());
        assertEquals("message_stop", events.get(events.size() - 1).event(), "the stream still ends as a stream does");
    }
}
