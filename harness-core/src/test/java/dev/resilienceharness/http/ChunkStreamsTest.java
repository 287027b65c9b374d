package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The wire form adapters hand their SDK's event parser when a whole answer answers a stream (what Spring AI's and
 * langchain4j's adapters built themselves before). The chunks' round trip is tested in the proxy's ChunkStreamsTest.
 */
class ChunkStreamsTest {

    static final String COMPLETION = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":5,"
            + "\"model\":\"gpt-5-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
            + "\"hello\",\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\","
            + "\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}],\"usage\":{\"total_tokens\":3}}";

    private static List<String> data(byte[] events) {
        String text = new String(events, StandardCharsets.UTF_8);
        assertTrue(text.endsWith("\n\n"), text);
        List<String> out = new ArrayList<>();
        for (String event : text.split("\n\n")) {
            assertEquals("data: ", event.substring(0, 6), text);
            out.add(event.substring(6));
        }
        return out;
    }

    private static byte[] wire(String body, boolean includeUsage) {
        return ChunkStreams.wire(body.getBytes(StandardCharsets.UTF_8), includeUsage);
    }

    @Test
    void aCompletionBecomesChunksOfItsMessageAFinishChunkAUsageChunkAndDone() {
        List<String> events = data(wire(COMPLETION, true));
        assertEquals("[DONE]", events.get(events.size() - 1));
        StringBuilder content = new StringBuilder();
        StringBuilder arguments = new StringBuilder();
        List<JsonNode> chunks = events.subList(0, events.size() - 1).stream().map(Json::readTree).toList();
        for (JsonNode chunk : chunks) {
            assertEquals("chat.completion.chunk", chunk.get("object").asString());
            assertEquals("chatcmpl-1", chunk.get("id").asString());
            assertEquals(5, chunk.get("created").asInt());
            assertEquals("gpt-5-mini", chunk.get("model").asString());
            JsonNode choice = chunk.path("choices").path(0);
            content.append(choice.path("delta").path("content").asString(""));
            JsonNode call = choice.path("delta").path("tool_calls").path(0);
            if (!call.isMissingNode()) {
                assertEquals(0, call.get("index").asInt());
                arguments.append(call.path("function").path("arguments").asString(""));
            }
        }
        assertEquals("assistant", chunks.get(0).path("choices").path(0).path("delta").path("role").asString());
        assertTrue(chunks.get(0).path("choices").path(0).path("finish_reason").isNull());
        assertEquals("hello", content.toString());
        assertEquals("{}", arguments.toString());
        JsonNode finish = chunks.get(chunks.size() - 2);
        assertEquals("tool_calls", finish.get("choices").get(0).get("finish_reason").asString());
        JsonNode usage = chunks.get(chunks.size() - 1);
        assertEquals(0, usage.get("choices").size());
        assertEquals(3, usage.get("usage").get("total_tokens").asInt());
    }

    @Test
    void noUsageChunkUnlessTheRequestAskedForIt() {
        List<String> events = data(wire(COMPLETION, false));
        assertEquals("[DONE]", events.get(events.size() - 1));
        assertFalse(events.stream().anyMatch(e -> e.contains("\"usage\"")), events.toString());
    }

    @Test
    void toolCallsGetTheIndexAStreamGivesThem() {
        String body = "{\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":null,\"tool_calls\":[{\"id\":\"a\",\"type\":\"function\",\"function\":{\"name\":\"f\","
                + "\"arguments\":\"{}\"}},{\"id\":\"b\",\"type\":\"function\",\"function\":{\"name\":\"g\","
                + "\"arguments\":\"{\\\"x\\\":1}\"}}]},\"finish_reason\":\"tool_calls\"}]}";
        List<String> heads = new ArrayList<>();
        for (String event : data(wire(body, false))) {
            if (event.startsWith("{")) {
                JsonNode call = Json.readTree(event).path("choices").path(0).path("delta").path("tool_calls").path(0);
                if (call.has("id")) {
                    heads.add(call.get("index").asInt() + " " + call.get("id").asString() + " "
                            + call.path("function").path("name").asString());
                }
            }
        }
        assertEquals(List.of("0 a f", "1 b g"), heads);
    }

    @Test
    void anythingButACompletionIsOneEvent() {
        assertEquals("data: {\"error\":{\"message\":\"no\"}}\n\ndata: [DONE]\n\n",
                new String(wire("{\"error\": {\"message\": \"no\"}}", true), StandardCharsets.UTF_8));
    }

    @Test
    void aBodyThatIsNotJsonIsOneEventOfItsText() {
        assertEquals("data: upstream said no\n\ndata: [DONE]\n\n",
                new String(wire("upstream said no", false), StandardCharsets.UTF_8));
    }

    @Test
    void usageIsStreamedWhenTheStreamingRequestAsksForIt() {
        assertTrue(ChunkStreams.includesUsage("{\"stream\":true,\"stream_options\":{\"include_usage\":true}}"
                .getBytes(StandardCharsets.UTF_8)));
        assertFalse(ChunkStreams.includesUsage("{\"stream\":true}".getBytes(StandardCharsets.UTF_8)));
        assertFalse(ChunkStreams.includesUsage("not json".getBytes(StandardCharsets.UTF_8)));
    }
}
