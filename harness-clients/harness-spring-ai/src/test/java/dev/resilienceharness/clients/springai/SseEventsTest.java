package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SseEventsTest {

    static final String COMPLETION = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":5,"
            + "\"model\":\"gpt-5-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
            + "\"hello\",\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\","
            + "\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}],\"usage\":{\"total_tokens\":3}}";

    private static List<String> data(byte[] events) {
        String text = new String(events, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        for (String event : text.split("\n\n")) {
            assertEquals("data: ", event.substring(0, 6), text);
            out.add(event.substring(6));
        }
        return out;
    }

    @Test
    void aCompletionBecomesADeltaChunkAFinishChunkAUsageChunkAndDone() {
        List<String> events = data(SseEvents.of(COMPLETION.getBytes(StandardCharsets.UTF_8), true));
        assertEquals(4, events.size(), events.toString());
        JsonNode delta = Json.readTree(events.get(0));
        assertEquals("chat.completion.chunk", delta.get("object").asString());
        assertEquals("chatcmpl-1", delta.get("id").asString());
        assertEquals(5, delta.get("created").asInt());
        JsonNode d = delta.get("choices").get(0).get("delta");
        assertEquals("assistant", d.get("role").asString());
        assertEquals("hello", d.get("content").asString());
        assertEquals(0, d.get("tool_calls").get(0).get("index").asInt());
        assertEquals("{}", d.get("tool_calls").get(0).get("function").get("arguments").asString());
        assertEquals(true, delta.get("choices").get(0).get("finish_reason").isNull());
        JsonNode finish = Json.readTree(events.get(1));
        assertEquals("tool_calls", finish.get("choices").get(0).get("finish_reason").asString());
        JsonNode usage = Json.readTree(events.get(2));
        assertEquals(0, usage.get("choices").size());
        assertEquals(3, usage.get("usage").get("total_tokens").asInt());
        assertEquals("[DONE]", events.get(3));
    }

    @Test
    void noUsageChunkUnlessTheRequestAskedForIt() {
        List<String> events = data(SseEvents.of(COMPLETION.getBytes(StandardCharsets.UTF_8), false));
        assertEquals(3, events.size(), events.toString());
        assertEquals("[DONE]", events.get(2));
    }

    @Test
    void aBodyThatIsNoCompletionIsOneEvent() {
        List<String> events = data(SseEvents.of("{\"object\":\"list\"}".getBytes(StandardCharsets.UTF_8), true));
        assertEquals(List.of("{\"object\":\"list\"}", "[DONE]"), events);
    }
}
