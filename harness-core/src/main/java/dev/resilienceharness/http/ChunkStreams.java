package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Splits a {@code chat.completion} body into the {@code data:} payloads of the stream a provider would have sent
 * for it: a role chunk, content and tool-call argument pieces, a finish chunk, an optional usage chunk and
 * {@code [DONE]}. The inverse of {@link ChunkAssembler}.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class ChunkStreams {

    /** Characters of content or arguments per chunk: small enough to look like a real stream. */
    public static final int PIECE = 16;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ChunkStreams() {
    }

    /**
     * The payloads, each one compact JSON or {@code [DONE]}.
     *
     * @param completion   the body to stream; anything without a {@code choices} array is sent as one event
     * @param includeUsage whether to end with a usage chunk, as {@code stream_options.include_usage} asks
     */
    public static List<String> of(JsonNode completion, boolean includeUsage) {
        List<String> events = new ArrayList<>();
        JsonNode choices = completion.get("choices");
        if (!completion.isObject() || choices == null || !choices.isArray()) {
            events.add(Json.compact(completion));
            events.add("[DONE]");
            return events;
        }
        for (JsonNode choice : choices) {
            int index = choice.path("index").asInt(0);
            JsonNode message = choice.path("message");
            ObjectNode delta = NODES.objectNode();
            delta.put("role", message.path("role").asString("assistant"));
            if (message.path("content").isString()) {
                delta.put("content", "");
            }
            events.add(chunk(completion, index, delta, null));
            for (String piece : pieces(message.path("content").asString(""))) {
                events.add(chunk(completion, index, NODES.objectNode().put("content", piece), null));
            }
            for (String piece : pieces(message.path("refusal").asString(""))) {
                events.add(chunk(completion, index, NODES.objectNode().put("refusal", piece), null));
            }
            JsonNode calls = message.get("tool_calls");
            if (calls != null && calls.isArray()) {
                for (int t = 0; t < calls.size(); t++) {
                    JsonNode call = calls.get(t);
                    ObjectNode head = NODES.objectNode().put("index", t);
                    if (call.path("id").isString()) {
                        head.put("id", call.get("id").asString());
                    }
                    head.put("type", call.path("type").asString("function"));
                    head.putObject("function").put("name", call.path("function").path("name").asString(""))
                            .put("arguments", "");
                    events.add(chunk(completion, index, toolDelta(head), null));
                    for (String piece : pieces(call.path("function").path("arguments").asString(""))) {
                        ObjectNode part = NODES.objectNode().put("index", t);
                        part.putObject("function").put("arguments", piece);
                        events.add(chunk(completion, index, toolDelta(part), null));
                    }
                }
            }
            JsonNode finish = choice.get("finish_reason");
            events.add(chunk(completion, index, NODES.objectNode(), finish == null ? NODES.nullNode() : finish));
        }
        if (includeUsage && completion.hasNonNull("usage")) {
            ObjectNode last = header(completion);
            last.putArray("choices");
            last.set("usage", completion.get("usage").deepCopy());
            events.add(Json.compact(last));
        }
        events.add("[DONE]");
        return events;
    }

    /**
     * The stream {@link #of} makes of {@code completion}, as the bytes an SDK's event parser reads: what an adapter
     * hands its SDK when a whole answer (no events of its own) answers a streaming request. A body that is not JSON
     * is one event of its text, then {@code [DONE]}.
     */
    public static byte[] wire(byte[] completion, boolean includeUsage) {
        JsonNode body;
        try {
            body = Json.readTree(completion);
        } catch (RuntimeException notJson) {
            return (new StreamEvent(0, new String(completion, StandardCharsets.UTF_8)).wire()
                    + new StreamEvent(0, "[DONE]").wire()).getBytes(StandardCharsets.UTF_8);
        }
        StringBuilder out = new StringBuilder();
        for (String data : of(body, includeUsage)) {
            out.append(new StreamEvent(0, data).wire());
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Whether {@code request}, a streaming request's JSON body, asks for a usage chunk ({@code stream_options}). */
    public static boolean includesUsage(byte[] request) {
        try {
            return Json.readTree(request).path("stream_options").path("include_usage").asBoolean(false);
        } catch (RuntimeException notJson) {
            return false;
        }
    }

    private static ObjectNode toolDelta(ObjectNode call) {
        ObjectNode delta = NODES.objectNode();
        delta.putArray("tool_calls").add(call);
        return delta;
    }

    private static String chunk(JsonNode completion, int index, ObjectNode delta, JsonNode finish) {
        ObjectNode chunk = header(completion);
        ArrayNode choices = chunk.putArray("choices");
        ObjectNode choice = choices.addObject();
        choice.put("index", index);
        choice.set("delta", delta);
        choice.set("finish_reason", finish == null ? NODES.nullNode() : finish.deepCopy());
        return Json.compact(chunk);
    }

    private static ObjectNode header(JsonNode completion) {
        ObjectNode chunk = NODES.objectNode();
        for (String key : new String[] {"id", "object", "created", "model", "service_tier", "system_fingerprint"}) {
            JsonNode v = completion.get(key);
            if ("object".equals(key)) {
                chunk.put("object", "chat.completion.chunk");
            } else if (v != null) {
                chunk.set(key, v.deepCopy());
            }
        }
        return chunk;
    }

    /** {@code text} in pieces of {@link #PIECE} characters, never splitting a surrogate pair. */
    public static List<String> pieces(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int end = Math.min(text.length(), i + PIECE);
            if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
                end++;
            }
            out.add(text.substring(i, end));
            i = end;
        }
        return out;
    }
}
