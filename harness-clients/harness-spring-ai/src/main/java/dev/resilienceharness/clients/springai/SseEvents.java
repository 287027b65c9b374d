package dev.resilienceharness.clients.springai;

import dev.resilienceharness.json.Json;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A recorded chat completion as the server-sent events of the stream the provider would have sent for it: per choice
 * a chunk with the role, content and tool calls, then a chunk with the finish reason, a usage chunk when the request
 * asked for one ({@code stream_options.include_usage}), and {@code [DONE]}.
 */
final class SseEvents {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private SseEvents() {
    }

    /** The events for {@code completion}; a body that is no chat completion is sent as one event. */
    static byte[] of(byte[] completion, boolean includeUsage) {
        JsonNode body;
        try {
            body = Json.readTree(completion);
        } catch (RuntimeException notJson) {
            return completion;
        }
        StringBuilder out = new StringBuilder();
        JsonNode choices = body.get("choices");
        if (!(body instanceof ObjectNode o) || choices == null || !choices.isArray()) {
            event(out, body);
            out.append("data: [DONE]\n\n");
            return out.toString().getBytes(StandardCharsets.UTF_8);
        }
        for (JsonNode choice : choices) {
            ObjectNode delta = NODES.objectNode();
            JsonNode message = choice.path("message");
            delta.put("role", message.path("role").asString("assistant"));
            if (message.hasNonNull("content")) {
                delta.set("content", message.get("content"));
            }
            if (message.path("tool_calls").isArray()) {
                ArrayNode calls = delta.putArray("tool_calls");
                int i = 0;
                for (JsonNode call : message.get("tool_calls")) {
                    ObjectNode c = calls.addObject();
                    c.put("index", i++);
                    c.set("id", call.get("id"));
                    c.set("type", call.get("type"));
                    c.set("function", call.get("function"));
                }
            }
            event(out, chunk(o, choice.path("index").asInt(0), delta, NODES.nullNode()));
            event(out, chunk(o, choice.path("index").asInt(0), NODES.objectNode(), choice.path("finish_reason")));
        }
        if (includeUsage && o.has("usage")) {
            ObjectNode usage = header(o);
            usage.putArray("choices");
            usage.set("usage", o.get("usage"));
            event(out, usage);
        }
        out.append("data: [DONE]\n\n");
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static ObjectNode chunk(ObjectNode completion, int index, ObjectNode delta, JsonNode finish) {
        ObjectNode chunk = header(completion);
        ObjectNode choice = chunk.putArray("choices").addObject();
        choice.put("index", index);
        choice.set("delta", delta);
        choice.set("finish_reason", finish.isMissingNode() ? NODES.nullNode() : finish);
        return chunk;
    }

    private static ObjectNode header(ObjectNode completion) {
        ObjectNode chunk = NODES.objectNode();
        chunk.set("id", completion.get("id"));
        chunk.put("object", "chat.completion.chunk");
        chunk.set("created", completion.get("created"));
        chunk.set("model", completion.get("model"));
        return chunk;
    }

    private static void event(StringBuilder out, JsonNode data) {
        out.append("data: ").append(Json.compact(data)).append("\n\n");
    }
}
