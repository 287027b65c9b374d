package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Splits an Anthropic {@code message} body into the named events of the stream the Messages API would have sent for
 * it: {@code message_start}, per content block a {@code content_block_start}, its text or tool input in
 * {@code text_delta} / {@code input_json_delta} pieces and a {@code content_block_stop}, then {@code message_delta}
 * with the stop reason and {@code message_stop}. A {@code tool_use} input that is a string (as the broken tool-call
 * faults make it) is sent as those characters, so that the reader's JSON stops where the string does. The inverse of
 * {@link MessageEvents}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class MessageStreams {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private MessageStreams() {
    }

    /**
     * The events, each at {@code atMs}.
     *
     * @param message the body to stream; anything without a {@code content} array is sent as one {@code message}
     *                event after {@code message_start}
     */
    public static List<StreamEvent> of(JsonNode message, long atMs) {
        List<StreamEvent> events = new ArrayList<>();
        JsonNode content = message.get("content");
        ObjectNode start = message.isObject() ? ((ObjectNode) message).deepCopy() : NODES.objectNode();
        start.putArray("content");
        start.putNull("stop_reason");
        start.putNull("stop_sequence");
        events.add(event(atMs, "message_start", NODES.objectNode().put("type", "message_start").set("message", start)));
        if (content != null && content.isArray()) {
            for (int i = 0; i < content.size(); i++) {
                blockEvents(events, atMs, i, content.get(i));
            }
        }
        ObjectNode delta = NODES.objectNode().put("type", "message_delta");
        ObjectNode d = delta.putObject("delta");
        d.set("stop_reason", message.has("stop_reason") ? message.get("stop_reason").deepCopy() : NODES.nullNode());
        d.set("stop_sequence", message.has("stop_sequence") ? message.get("stop_sequence").deepCopy()
                : NODES.nullNode());
        JsonNode output = message.path("usage").get("output_tokens");
        delta.putObject("usage").set("output_tokens", output == null ? NODES.numberNode(0) : output.deepCopy());
        events.add(event(atMs, "message_delta", delta));
        events.add(event(atMs, "message_stop", NODES.objectNode().put("type", "message_stop")));
        return events;
    }

    private static void blockEvents(List<StreamEvent> events, long atMs, int index, JsonNode block) {
        String type = block.path("type").asString("");
        ObjectNode head = block.isObject() ? ((ObjectNode) block).deepCopy() : NODES.objectNode();
        List<ObjectNode> deltas = new ArrayList<>();
        switch (type) {
            case "text" -> {
                head.put("text", "");
                for (String piece : ChunkStreams.pieces(block.path("text").asString(""))) {
                    deltas.add(NODES.objectNode().put("type", "text_delta").put("text", piece));
                }
            }
            case "tool_use", "server_tool_use" -> {
                JsonNode input = block.get("input");
                String json = input == null ? "" : input.isString() ? input.asString() : Json.compact(input);
                head.putObject("input");
                for (String piece : ChunkStreams.pieces(json)) {
                    deltas.add(NODES.objectNode().put("type", "input_json_delta").put("partial_json", piece));
                }
            }
            default -> {
                // Thinking and other blocks are sent whole in their start event.
            }
        }
        ObjectNode startEvent = NODES.objectNode().put("type", "content_block_start").put("index", index);
        startEvent.set("content_block", head);
        events.add(event(atMs, "content_block_start", startEvent));
        for (ObjectNode delta : deltas) {
            ObjectNode e = NODES.objectNode().put("type", "content_block_delta").put("index", index);
            e.set("delta", delta);
            events.add(event(atMs, "content_block_delta", e));
        }
        events.add(event(atMs, "content_block_stop",
                NODES.objectNode().put("type", "content_block_stop").put("index", index)));
    }

    private static StreamEvent event(long atMs, String name, ObjectNode data) {
        return new StreamEvent(atMs, name, Json.compact(data));
    }
}
