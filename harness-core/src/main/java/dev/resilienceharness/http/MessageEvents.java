package dev.resilienceharness.http;

import dev.resilienceharness.json.Json;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns an Anthropic Messages event stream ({@code message_start}, {@code content_block_start}, {@code
 * content_block_delta}, {@code content_block_stop}, {@code message_delta}, {@code message_stop}) into the one
 * {@code message} body a non-streaming call would have returned: text deltas concatenated per content block, a
 * {@code tool_use} block's {@code input_json_delta} pieces joined and read as its {@code input} (kept as the string
 * that arrived when it is not JSON), the stop reason and usage of {@code message_delta} kept. {@link ChunkAssembler}
 * hands it the events that are Messages events. Not thread-safe: one instance assembles one stream.
 */
final class MessageEvents implements NamedEvents {

    /** The {@code type} of every event of a Messages stream. */
    static final Set<String> TYPES = Set.of("message_start", "content_block_start", "content_block_delta",
            "content_block_stop", "message_delta", "message_stop", "ping");

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ObjectNode message;
    private final Map<Integer, Block> blocks = new TreeMap<>();
    private boolean stopped;

    private static final class Block {
        ObjectNode start;
        final StringBuilder text = new StringBuilder();
        final StringBuilder json = new StringBuilder();
        final StringBuilder thinking = new StringBuilder();
        final StringBuilder signature = new StringBuilder();
    }

    /** Whether {@code chunk} is an event of a Messages stream. */
    static boolean isMessagesEvent(JsonNode chunk) {
        return !chunk.has("choices") && TYPES.contains(chunk.path("type").asString(""));
    }

    /**
     * Applies one event.
     *
     * @return whether it carried a token (text, thinking or tool input, or the start of a tool call)
     */
    @Override
    public boolean apply(JsonNode event) {
        switch (event.path("type").asString("")) {
            case "message_start" -> {
                JsonNode m = event.get("message");
                message = m instanceof ObjectNode o ? o.deepCopy() : NODES.objectNode();
                return false;
            }
            case "content_block_start" -> {
                Block b = blocks.computeIfAbsent(event.path("index").asInt(blocks.size()), i -> new Block());
                JsonNode cb = event.get("content_block");
                b.start = cb instanceof ObjectNode o ? o.deepCopy() : NODES.objectNode().put("type", "text");
                if (b.start.path("text").isString()) {
                    b.text.append(b.start.get("text").asString());
                }
                return "tool_use".equals(b.start.path("type").asString(""));
            }
            case "content_block_delta" -> {
                Block b = blocks.computeIfAbsent(event.path("index").asInt(blocks.size()), i -> new Block());
                JsonNode delta = event.path("delta");
                String piece = switch (delta.path("type").asString("")) {
                    case "text_delta" -> append(b.text, delta.path("text").asString(""));
                    case "input_json_delta" -> append(b.json, delta.path("partial_json").asString(""));
                    case "thinking_delta" -> append(b.thinking, delta.path("thinking").asString(""));
                    case "signature_delta" -> {
                        b.signature.append(delta.path("signature").asString(""));
                        yield "";
                    }
                    default -> "";
                };
                return !piece.isEmpty();
            }
            case "message_delta" -> {
                ObjectNode m = live();
                JsonNode delta = event.path("delta");
                if (delta.isObject()) {
                    delta.properties().forEach(p -> m.set(p.getKey(), p.getValue().deepCopy()));
                }
                JsonNode usage = event.get("usage");
                if (usage instanceof ObjectNode u) {
                    ObjectNode merged = m.get("usage") instanceof ObjectNode o ? o : m.putObject("usage");
                    u.properties().forEach(p -> {
                        if (!p.getValue().isNull()) {
                            merged.set(p.getKey(), p.getValue().deepCopy());
                        }
                    });
                }
                return false;
            }
            case "message_stop" -> {
                stopped = true;
                return false;
            }
            default -> {
                return false; // content_block_stop and ping carry nothing a message needs
            }
        }
    }

    /** Whether {@code message_stop} arrived. */
    @Override
    public boolean done() {
        return stopped;
    }

    /** The assembled {@code message}. */
    @Override
    public ObjectNode body() {
        ObjectNode out = live().deepCopy();
        ArrayNode content = out.putArray("content");
        for (Block b : blocks.values()) {
            ObjectNode block = b.start == null ? NODES.objectNode().put("type", "text") : b.start.deepCopy();
            switch (block.path("type").asString("")) {
                case "text" -> block.put("text", b.text.toString());
                case "tool_use", "server_tool_use" -> block.set("input", input(b.json.toString(), block.get("input")));
                case "thinking" -> {
                    block.put("thinking", b.thinking.toString());
                    block.put("signature", b.signature.toString());
                }
                default -> {
                    // Other blocks arrive whole in content_block_start.
                }
            }
            content.add(block);
        }
        return out;
    }

    /** The message as {@code message_start} began it, changed in place by {@code message_delta}. */
    private ObjectNode live() {
        if (message == null) {
            message = NODES.objectNode().put("type", "message").put("role", "assistant");
        }
        return message;
    }

    private static String append(StringBuilder sb, String piece) {
        sb.append(piece);
        return piece;
    }

    /** The tool input the pieces add up to; the start block's input when none came; the raw text when not JSON. */
    private static JsonNode input(String json, JsonNode started) {
        if (json.isEmpty()) {
            return started == null ? NODES.objectNode() : started.deepCopy();
        }
        try {
            return Json.readTree(json);
        } catch (JacksonException e) {
            return NODES.stringNode(json);
        }
    }
}
