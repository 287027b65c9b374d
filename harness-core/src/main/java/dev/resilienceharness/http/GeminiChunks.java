package dev.resilienceharness.http;

import dev.resilienceharness.json.Json;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Assembles the chunks of a Gemini {@code streamGenerateContent} stream into the one {@code GenerateContentResponse}
 * a {@code generateContent} call would have returned: per candidate, consecutive text pieces joined into one part and
 * every other part kept whole, the last {@code finishReason}, and the last {@code usageMetadata}. The stream is done
 * once every candidate has a finish reason. The inverse of {@link GeminiStreams}.
 */
final class GeminiChunks implements NamedEvents {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ObjectNode top = NODES.objectNode();
    private final Map<Integer, ObjectNode> candidates = new TreeMap<>();

    /** Whether {@code chunk} is a Gemini response chunk: it has {@code candidates}, or only usage or feedback. */
    static boolean isGeminiChunk(JsonNode chunk) {
        return chunk.has("candidates") || !chunk.has("choices") && !chunk.has("type")
                && (chunk.has("usageMetadata") || chunk.has("promptFeedback"));
    }

    @Override
    public boolean apply(JsonNode chunk) {
        boolean token = false;
        for (Map.Entry<String, JsonNode> e : chunk.properties()) {
            String key = e.getKey();
            if ("candidates".equals(key)) {
                continue;
            }
            boolean first = "responseId".equals(key) || "modelVersion".equals(key) || "createTime".equals(key);
            if (!(first && top.has(key)) && !e.getValue().isNull()) {
                top.set(key, e.getValue().deepCopy());
            }
        }
        JsonNode list = chunk.get("candidates");
        if (list != null && list.isArray()) {
            for (int i = 0; i < list.size(); i++) {
                token |= applyCandidate(list.get(i), i);
            }
        }
        return token;
    }

    private boolean applyCandidate(JsonNode c, int position) {
        int index = c.path("index").asInt(position);
        ObjectNode candidate = candidates.computeIfAbsent(index, i -> {
            ObjectNode n = NODES.objectNode();
            n.putObject("content").putArray("parts");
            return n;
        });
        boolean token = false;
        for (Map.Entry<String, JsonNode> e : c.properties()) {
            if (!"content".equals(e.getKey()) && !"index".equals(e.getKey()) && !e.getValue().isNull()) {
                candidate.set(e.getKey(), e.getValue().deepCopy());
            }
        }
        JsonNode content = c.get("content");
        if (content == null || !content.isObject()) {
            return false;
        }
        ObjectNode into = (ObjectNode) candidate.get("content");
        if (content.path("role").isString()) {
            into.put("role", content.get("role").asString());
        }
        ArrayNode parts = (ArrayNode) into.get("parts");
        for (JsonNode part : content.path("parts")) {
            JsonNode last = parts.isEmpty() ? null : parts.get(parts.size() - 1);
            if (GeminiStreams.isText(part) && last != null && GeminiStreams.isText(last)
                    && part.path("thought").asBoolean(false) == last.path("thought").asBoolean(false)) {
                ((ObjectNode) last).put("text", last.get("text").asString() + part.get("text").asString());
            } else {
                parts.add(part.deepCopy());
            }
            token |= part.has("functionCall") || !part.path("text").asString("").isEmpty();
        }
        return token;
    }

    @Override
    public boolean done() {
        if (candidates.isEmpty()) {
            return false;
        }
        for (ObjectNode c : candidates.values()) {
            if (!c.hasNonNull("finishReason")) {
                return false;
            }
        }
        return true;
    }

    @Override
    public ObjectNode body() {
        ObjectNode out = NODES.objectNode();
        ArrayNode list = out.putArray("candidates");
        for (Map.Entry<Integer, ObjectNode> e : candidates.entrySet()) {
            ObjectNode c = list.addObject();
            c.set("content", e.getValue().get("content").deepCopy());
            e.getValue().properties().forEach(p -> {
                if (!"content".equals(p.getKey())) {
                    c.set(p.getKey(), p.getValue().deepCopy());
                }
            });
            c.put("index", e.getKey());
        }
        top.properties().forEach(p -> out.set(p.getKey(), p.getValue().deepCopy()));
        return out;
    }

    @Override
    public String toString() {
        return Json.compact(body());
    }
}
