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
 * Splits an OpenAI {@code response} body (the Responses API) into the named events of the stream the API would have
 * sent for it, each event's {@code type} its SSE name and each numbered by {@code sequence_number}:
 * {@code response.created} and {@code response.in_progress} with the response as it starts (no output, no usage
 * yet); per
 * output item a {@code response.output_item.added}, then
 * <ul>
 *   <li>for a {@code message}, per content part a {@code response.content_part.added}, its text in
 *       {@code response.output_text.delta} pieces (a refusal in {@code response.refusal.delta} pieces), the
 *       {@code ….done} event with the whole text and a {@code response.content_part.done};</li>
 *   <li>for a {@code function_call}, its arguments in {@code response.function_call_arguments.delta} pieces and a
 *       {@code response.function_call_arguments.done} (arguments that are not a string, as the broken tool-call
 *       faults may leave them, are sent as their compact JSON);</li>
 * </ul>
 * and a {@code response.output_item.done} with the whole item; last {@code response.completed} with the whole
 * response ({@code response.incomplete} or {@code response.failed} when its {@code status} says so).
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ResponseStreams {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ResponseStreams() {
    }

    /**
     * The events, each at {@code atMs}.
     *
     * @param response the body to stream; anything without an {@code output} array is sent as its start and end
     *                 events only
     */
    public static List<StreamEvent> of(JsonNode response, long atMs) {
        Events events = new Events(atMs);
        ObjectNode whole = response.isObject() ? ((ObjectNode) response).deepCopy() : NODES.objectNode();
        ObjectNode start = whole.deepCopy();
        start.put("status", "in_progress");
        start.putArray("output");
        if (start.has("usage")) {
            start.putNull("usage"); // counted once the response is done, as the API counts it
        }
        events.add("response.created", NODES.objectNode().set("response", start));
        events.add("response.in_progress", NODES.objectNode().set("response", start));
        JsonNode output = whole.get("output");
        if (output != null && output.isArray()) {
            for (int i = 0; i < output.size(); i++) {
                item(events, i, output.get(i));
            }
        }
        String status = whole.path("status").asString("completed");
        String end = switch (status) {
            case "incomplete" -> "response.incomplete";
            case "failed" -> "response.failed";
            default -> "response.completed";
        };
        if (!whole.has("status")) {
            whole.put("status", "completed");
        }
        events.add(end, NODES.objectNode().set("response", whole));
        return events.list;
    }

    private static void item(Events events, int index, JsonNode item) {
        String type = item.path("type").asString("");
        String itemId = item.path("id").asString((type.equals("function_call") ? "fc_" : "item_") + index);
        ObjectNode head = item.isObject() ? ((ObjectNode) item).deepCopy() : NODES.objectNode();
        head.put("status", "in_progress");
        switch (type) {
            case "message" -> head.putArray("content");
            case "function_call" -> head.put("arguments", "");
            default -> head = item.isObject() ? ((ObjectNode) item).deepCopy() : NODES.objectNode();
        }
        events.add("response.output_item.added", NODES.objectNode().put("output_index", index).set("item", head));
        if (type.equals("message") && item.path("content").isArray()) {
            JsonNode content = item.get("content");
            for (int j = 0; j < content.size(); j++) {
                part(events, itemId, index, j, content.get(j));
            }
        } else if (type.equals("function_call")) {
            JsonNode arguments = item.get("arguments");
            String json = arguments == null ? "" : arguments.isString() ? arguments.asString() : Json.compact(arguments);
            for (String piece : ChunkStreams.pieces(json)) {
                events.add("response.function_call_arguments.delta", located(itemId, index).put("delta", piece));
            }
            ObjectNode done = located(itemId, index).put("arguments", json);
            if (item.path("name").isString()) {
                done.put("name", item.get("name").asString());
            }
            events.add("response.function_call_arguments.done", done);
        }
        ObjectNode whole = item.isObject() ? ((ObjectNode) item).deepCopy() : NODES.objectNode();
        if (!whole.has("status")) {
            whole.put("status", "completed");
        }
        events.add("response.output_item.done", NODES.objectNode().put("output_index", index).set("item", whole));
    }

    private static void part(Events events, String itemId, int index, int contentIndex, JsonNode part) {
        String type = part.path("type").asString("");
        String field = type.equals("output_text") ? "text" : type.equals("refusal") ? "refusal" : null;
        ObjectNode empty = part.isObject() ? ((ObjectNode) part).deepCopy() : NODES.objectNode();
        if (field != null) {
            empty.put(field, "");
        }
        events.add("response.content_part.added",
                located(itemId, index).put("content_index", contentIndex).set("part", empty));
        if (field != null) {
            String text = part.path(field).asString("");
            String kind = type.equals("output_text") ? "response.output_text" : "response.refusal";
            for (String piece : ChunkStreams.pieces(text)) {
                ObjectNode delta = located(itemId, index).put("content_index", contentIndex).put("delta", piece);
                if (field.equals("text")) {
                    delta.putArray("logprobs");
                }
                events.add(kind + ".delta", delta);
            }
            ObjectNode done = located(itemId, index).put("content_index", contentIndex).put(field, text);
            if (field.equals("text")) {
                done.putArray("logprobs");
            }
            events.add(kind + ".done", done);
        }
        events.add("response.content_part.done", located(itemId, index).put("content_index", contentIndex)
                .set("part", part.deepCopy()));
    }

    private static ObjectNode located(String itemId, int index) {
        return NODES.objectNode().put("item_id", itemId).put("output_index", index);
    }

    /** The events so far, numbered as they are added. */
    private static final class Events {

        final List<StreamEvent> list = new ArrayList<>();
        private final long atMs;

        Events(long atMs) {
            this.atMs = atMs;
        }

        void add(String type, ObjectNode fields) {
            ObjectNode data = NODES.objectNode().put("type", type);
            fields.properties().forEach(p -> data.set(p.getKey(), p.getValue()));
            data.put("sequence_number", list.size());
            list.add(new StreamEvent(atMs, type, Json.compact(data)));
        }
    }
}
