package dev.resilienceharness.clients.langchain4j;

import dev.resilienceharness.json.Json;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A recorded {@code chat.completion} as the server-sent events a provider streams for it, for langchain4j's streaming
 * model: cassettes hold the assembled answer (recording assembles a stream into one), so a streamed request is
 * replayed as one {@code chat.completion.chunk} per choice carrying the whole message, a chunk with its finish
 * reason, a usage chunk when the request asked for one, and {@code [DONE]}.
 */
final class CompletionEvents {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private CompletionEvents() {
    }

    /**
     * The event stream for {@code body}.
     *
     * @param body    the answer's body: a chat completion, or anything else, which is sent as one event
     * @param request the request the model sent, whose {@code stream_options.include_usage} asks for usage
     */
    static byte[] of(byte[] body, byte[] request) {
        JsonNode completion = Json.readTree(body);
        StringBuilder events = new StringBuilder();
        JsonNode choices = completion.get("choices");
        if (!completion.isObject() || choices == null || !choices.isArray()) {
            event(events, Json.compact(completion));
            event(events, "[DONE]");
            return bytes(events);
        }
        for (JsonNode choice : choices) {
            ObjectNode delta = NODES.objectNode();
            JsonNode message = choice.path("message");
            delta.put("role", message.path("role").asString("assistant"));
            if (message.path("content").isString()) {
                delta.put("content", message.get("content").asString());
            }
            JsonNode calls = message.get("tool_calls");
            if (calls != null && calls.isArray() && !calls.isEmpty()) {
                ArrayNode streamed = delta.putArray("tool_calls");
                for (int i = 0; i < calls.size(); i++) {
                    ObjectNode call = streamed.addObject().put("index", i);
                    if (calls.get(i) instanceof ObjectNode recorded) {
                        call.setAll(recorded.deepCopy());
                    }
                }
            }
            event(events, chunk(completion, choice.path("index").asInt(0), delta, NODES.nullNode()));
            JsonNode finish = choice.get("finish_reason");
            event(events, chunk(completion, choice.path("index").asInt(0), NODES.objectNode(),
                    finish == null ? NODES.nullNode() : finish));
        }
        if (completion.hasNonNull("usage") && Json.readTree(request).path("stream_options").path("include_usage")
                .asBoolean(false)) {
            ObjectNode last = header(completion);
            last.putArray("choices");
            last.set("usage", completion.get("usage").deepCopy());
            event(events, Json.compact(last));
        }
        event(events, "[DONE]");
        return bytes(events);
    }

    private static String chunk(JsonNode completion, int index, ObjectNode delta, JsonNode finish) {
        ObjectNode chunk = header(completion);
        ObjectNode choice = chunk.putArray("choices").addObject();
        choice.put("index", index);
        choice.set("delta", delta);
        choice.set("finish_reason", finish);
        return Json.compact(chunk);
    }

    private static ObjectNode header(JsonNode completion) {
        ObjectNode chunk = NODES.objectNode();
        for (String key : new String[] {"id", "created", "model", "system_fingerprint", "service_tier"}) {
            if (completion.has(key)) {
                chunk.set(key, completion.get(key).deepCopy());
            }
        }
        chunk.put("object", "chat.completion.chunk");
        return chunk;
    }

    private static void event(StringBuilder events, String data) {
        events.append("data: ").append(data).append("\n\n");
    }

    private static byte[] bytes(StringBuilder events) {
        return events.toString().getBytes(StandardCharsets.UTF_8);
    }
}
