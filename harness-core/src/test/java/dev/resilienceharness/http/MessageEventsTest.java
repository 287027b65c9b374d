package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.json.Json;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class MessageEventsTest {

    /** A Messages stream as the API sends it: a text block, a tool_use block in input_json_delta pieces, a ping. */
    static List<StreamEvent> stream() {
        List<StreamEvent> out = new ArrayList<>();
        long[] at = {50};
        java.util.function.BiConsumer<String, String> add = (name, data) -> out.add(new StreamEvent(at[0] += 10, name,
                data));
        add.accept("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,"
                + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}");
        add.accept("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                + "{\"type\":\"text\",\"text\":\"\"}}");
        add.accept("ping", "{\"type\":\"ping\"}");
        add.accept("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                + "{\"type\":\"text_delta\",\"text\":\"Patch \"}}");
        add.accept("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                + "{\"type\":\"text_delta\",\"text\":\"it.\"}}");
        add.accept("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
        add.accept("content_block_start", "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write_file\",\"input\":{}}}");
        add.accept("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":"
                + "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"path\\\": \\\"A.j\"}}");
        add.accept("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":"
                + "{\"type\":\"input_json_delta\",\"partial_json\":\"ava\\\"}\"}}");
        add.accept("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":1}");
        add.accept("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\","
                + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":31}}");
        add.accept("message_stop", "{\"type\":\"message_stop\"}");
        return out;
    }

    @Test
    void aMessagesStreamAddsUpToTheMessageANonStreamingCallReturns() throws Exception {
        StreamRecording.Captured c = StreamRecording.assemble(stream());
        ObjectNode m = c.completion();
        assertEquals("msg_1", m.get("id").asString());
        assertEquals("message", m.get("type").asString());
        assertEquals("Patch it.", m.get("content").get(0).get("text").asString());
        JsonNode tool = m.get("content").get(1);
        assertEquals("write_file", tool.get("name").asString());
        assertEquals("A.java", tool.get("input").get("path").asString(), "the input pieces read as one JSON object");
        assertEquals("tool_use", m.get("stop_reason").asString(), "message_delta's stop reason");
        assertEquals(12, m.get("usage").get("input_tokens").asInt());
        assertEquals(31, m.get("usage").get("output_tokens").asInt(), "message_delta's usage wins");
        assertEquals(90L, c.firstTokenMs(), "the first text delta, not message_start or the empty block start");
    }

    @Test
    void readingStopsAtMessageStopAndKeepsEveryEventName() throws Exception {
        StringBuilder wire = new StringBuilder();
        stream().forEach(e -> wire.append(e.wire()));
        wire.append("event: ping\ndata: {\"type\":\"ping\"}\n\n");
        long[] now = {0};
        StreamRecording.Captured c = StreamRecording.read(new ByteArrayInputStream(wire.toString()
                .getBytes(StandardCharsets.UTF_8)), () -> now[0] += 5);
        assertEquals(12, c.stream().events().size(), "nothing read after message_stop");
        assertEquals("message_start", c.stream().events().get(0).event());
        assertEquals("message_stop", c.stream().events().get(11).event());
        assertEquals("Patch it.", c.completion().get("content").get(0).get("text").asString());
    }

    @Test
    void anErrorEventOrAStreamWithoutMessageStopIsBroken() {
        List<StreamEvent> cut = stream().subList(0, 5);
        StreamRecording.Broken early = assertThrows(StreamRecording.Broken.class, () -> StreamRecording.assemble(cut));
        assertTrue(early.getMessage().contains("ended before"), early.getMessage());
        List<StreamEvent> failed = new ArrayList<>(stream().subList(0, 4));
        failed.add(new StreamEvent(100, "error", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                + "\"message\":\"Overloaded\"}}"));
        StreamRecording.Broken error = assertThrows(StreamRecording.Broken.class,
                () -> StreamRecording.assemble(failed));
        assertTrue(error.getMessage().contains("overloaded_error"), error.getMessage());
    }

    @Test
    void aToolInputThatIsNotJsonIsKeptAsTheTextThatArrived() throws Exception {
        List<StreamEvent> events = new ArrayList<>(stream());
        events.remove(8); // the second half of the input
        ObjectNode m = StreamRecording.assemble(events).completion();
        assertEquals("{\"path\": \"A.j", m.get("content").get(1).get("input").asString());
    }

    @Test
    void onlyMessagesEventTypesAreMessagesEvents() {
        assertTrue(MessageEvents.isMessagesEvent(Json.readTree("{\"type\":\"content_block_delta\"}")));
        assertFalse(MessageEvents.isMessagesEvent(Json.readTree("{\"type\":\"response.created\"}")));
        assertFalse(MessageEvents.isMessagesEvent(Json.readTree("{\"choices\":[],\"type\":\"message_start\"}")));
    }
}
