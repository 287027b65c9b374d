package dev.resilienceharness.http;

import dev.resilienceharness.json.Json;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Assembles a Bedrock {@code ConverseStream}'s events into the one answer {@code Converse} would have returned: per
 * content block its text deltas joined, a {@code toolUse} started by {@code contentBlockStart} with its
 * {@code input} fragments joined and read as JSON (kept as the string when they are not JSON, so that the tool-call
 * check sees a broken call), reasoning text and signature; then {@code messageStop}'s stop reason and
 * {@code metadata}'s usage and metrics. Each event comes as {@code {eventType: payload}}, as AWS's JSON names a union
 * member. The stream is done with {@code metadata}, Bedrock's last event. The inverse of {@link BedrockStreams}.
 */
final class BedrockEvents implements NamedEvents {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private String role = "assistant";
    private final Map<Integer, Block> blocks = new TreeMap<>();
    private final ObjectNode tail = NODES.objectNode();
    private boolean stopped;
    private boolean done;

    private static final class Block {
        StringBuilder text;
        String toolUseId;
        String name;
        StringBuilder input;
        StringBuilder reasoning;
        String signature;
    }

    /** {@code payload} as the union member {@code {eventType: payload}}. */
    static ObjectNode union(String eventType, JsonNode payload) {
        ObjectNode u = NODES.objectNode();
        u.set(eventType, payload);
        return u;
    }

    @Override
    public boolean apply(JsonNode event) {
        if (event.get("messageStart") instanceof ObjectNode start) {
            role = start.path("role").asString(role);
            return false;
        }
        if (event.get("contentBlockStart") instanceof ObjectNode start) {
            JsonNode use = start.path("start").path("toolUse");
            if (!use.isObject()) {
                return false;
            }
            Block b = block(start);
            b.toolUseId = use.path("toolUseId").asString("");
            b.name = use.path("name").asString("");
            b.input = b.input == null ? new StringBuilder() : b.input;
            return true;
        }
        if (event.get("contentBlockDelta") instanceof ObjectNode d) {
            return delta(block(d), d.path("delta"));
        }
        if (event.get("contentBlockStop") instanceof ObjectNode) {
            return false;
        }
        if (event.get("messageStop") instanceof ObjectNode stop) {
            stopped = true;
            tail.set("stopReason", stop.path("stopReason").deepCopy());
            if (stop.has("additionalModelResponseFields")) {
                tail.set("additionalModelResponseFields", stop.get("additionalModelResponseFields").deepCopy());
            }
            return false;
        }
        if (event.get("metadata") instanceof ObjectNode metadata) {
            metadata.properties().forEach(e -> {
                if (!"p".equals(e.getKey())) { // Bedrock pads its events with a "p" field that carries nothing
                    tail.set(e.getKey(), e.getValue().deepCopy());
                }
            });
            done = stopped;
        }
        return false;
    }

    private Block block(JsonNode event) {
        return blocks.computeIfAbsent(event.path("contentBlockIndex").asInt(0), i -> new Block());
    }

    private static boolean delta(Block b, JsonNode delta) {
        if (delta.path("text").isString()) {
            String text = delta.get("text").asString();
            b.text = b.text == null ? new StringBuilder() : b.text;
            b.text.append(text);
            return !text.isEmpty();
        }
        if (delta.path("toolUse").path("input").isString()) {
            b.input = b.input == null ? new StringBuilder() : b.input;
            b.input.append(delta.get("toolUse").get("input").asString());
            return true;
        }
        JsonNode reasoning = delta.path("reasoningContent");
        if (reasoning.isObject()) {
            if (reasoning.path("text").isString()) {
                b.reasoning = b.reasoning == null ? new StringBuilder() : b.reasoning;
                b.reasoning.append(reasoning.get("text").asString());
            }
            if (reasoning.path("signature").isString()) {
                b.signature = reasoning.get("signature").asString();
            }
            return true;
        }
        return false;
    }

    @Override
    public boolean done() {
        return done;
    }

    @Override
    public ObjectNode body() {
        ObjectNode out = NODES.objectNode();
        ObjectNode message = out.putObject("output").putObject("message");
        message.put("role", role);
        ArrayNode content = message.putArray("content");
        for (Block b : blocks.values()) {
            if (b.name != null || b.input != null) {
                ObjectNode use = content.addObject().putObject("toolUse");
                use.put("toolUseId", b.toolUseId == null ? "" : b.toolUseId);
                use.put("name", b.name == null ? "" : b.name);
                use.set("input", input(b.input == null ? "" : b.input.toString()));
            } else if (b.reasoning != null || b.signature != null) {
                ObjectNode text = content.addObject().putObject("reasoningContent").putObject("reasoningText");
                text.put("text", b.reasoning == null ? "" : b.reasoning.toString());
                if (b.signature != null) {
                    text.put("signature", b.signature);
                }
            } else if (b.text != null) {
                content.addObject().put("text", b.text.toString());
            }
        }
        tail.properties().forEach(e -> out.set(e.getKey(), e.getValue().deepCopy()));
        return out;
    }

    /** The tool's input as JSON; an empty input is {@code {}}, input that is not JSON stays the string it is. */
    private static JsonNode input(String json) {
        if (json.isBlank()) {
            return NODES.objectNode();
        }
        try {
            return Json.readTree(json);
        } catch (JacksonException e) {
            return NODES.stringNode(json);
        }
    }

    @Override
    public String toString() {
        return Json.compact(body());
    }
}
