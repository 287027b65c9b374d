package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Splits a Gemini {@code GenerateContentResponse} into the chunks {@code streamGenerateContent?alt=sse} would have
 * sent for it: each a partial response of the same shape, a candidate's text in pieces and its other parts (a
 * {@code functionCall}) whole, the candidate's {@code finishReason} on its last chunk, {@code usageMetadata} on the
 * last of all. Gemini's stream has no end marker: it ends when the connection closes. The inverse of
 * {@link GeminiChunks}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class GeminiStreams {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** What every chunk repeats from the whole response. */
    private static final List<String> HEADER = List.of("modelVersion", "responseId", "createTime");

    private GeminiStreams() {
    }

    /**
     * The chunks, each at {@code atMs}.
     *
     * @param response the body to stream; anything without a {@code candidates} array is sent as one chunk
     */
    public static List<StreamEvent> of(JsonNode response, long atMs) {
        List<StreamEvent> events = new ArrayList<>();
        JsonNode candidates = response.get("candidates");
        if (!response.isObject() || candidates == null || !candidates.isArray()) {
            events.add(new StreamEvent(atMs, Json.compact(response)));
            return events;
        }
        List<ObjectNode> chunks = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            JsonNode candidate = candidates.get(i);
            int index = candidate.path("index").asInt(i);
            String role = candidate.path("content").path("role").asString("model");
            List<ObjectNode> own = new ArrayList<>();
            for (JsonNode part : candidate.path("content").path("parts")) {
                if (isText(part)) {
                    for (String piece : ChunkStreams.pieces(part.get("text").asString())) {
                        ObjectNode p = ((ObjectNode) part).deepCopy().put("text", piece);
                        own.add(chunk(response, index, role, p));
                    }
                } else {
                    own.add(chunk(response, index, role, part.deepCopy()));
                }
            }
            if (own.isEmpty()) {
                own.add(chunk(response, index, role, null));
            }
            ObjectNode last = (ObjectNode) own.get(own.size() - 1).get("candidates").get(0);
            for (Map.Entry<String, JsonNode> e : candidate.properties()) {
                if (!"content".equals(e.getKey()) && !"index".equals(e.getKey())) {
                    last.set(e.getKey(), e.getValue().deepCopy());
                }
            }
            chunks.addAll(own);
        }
        if (chunks.isEmpty()) {
            ObjectNode only = header(response);
            only.putArray("candidates");
            chunks.add(only);
        }
        ObjectNode end = chunks.get(chunks.size() - 1);
        for (Map.Entry<String, JsonNode> e : response.properties()) {
            if (!"candidates".equals(e.getKey()) && !HEADER.contains(e.getKey())) {
                end.set(e.getKey(), e.getValue().deepCopy());
            }
        }
        for (ObjectNode c : chunks) {
            events.add(new StreamEvent(atMs, Json.compact(c)));
        }
        return events;
    }

    /** Whether {@code part} is text (a thought summary included): the parts a stream sends in pieces. */
    static boolean isText(JsonNode part) {
        if (!part.isObject() || !part.path("text").isString()) {
            return false;
        }
        for (String key : part.propertyNames()) {
            if (!"text".equals(key) && !"thought".equals(key)) {
                return false;
            }
        }
        return true;
    }

    private static ObjectNode chunk(JsonNode response, int index, String role, JsonNode part) {
        ObjectNode chunk = NODES.objectNode();
        ObjectNode candidate = chunk.putArray("candidates").addObject();
        ObjectNode content = candidate.putObject("content");
        content.put("role", role);
        if (part != null) {
            content.putArray("parts").add(part);
        } else {
            content.putArray("parts");
        }
        candidate.put("index", index);
        ObjectNode header = header(response);
        header.properties().forEach(e -> chunk.set(e.getKey(), e.getValue()));
        return chunk;
    }

    private static ObjectNode header(JsonNode response) {
        ObjectNode h = NODES.objectNode();
        for (String key : HEADER) {
            if (response.has(key)) {
                h.set(key, response.get(key).deepCopy());
            }
        }
        return h;
    }
}
