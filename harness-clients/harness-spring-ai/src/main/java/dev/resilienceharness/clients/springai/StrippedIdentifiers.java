package dev.resilienceharness.clients.springai;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.json.Fingerprint;
import dev.resilienceharness.json.Json;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Puts back the identifiers that recording strips from a chat completion ({@code response.id} and
 * {@code response.created} are volatile by default): Spring AI reads {@code id} of every completion, and openai-java
 * throws {@code OpenAIInvalidDataException: `id` is not set} when it is missing.
 */
final class StrippedIdentifiers {

    private StrippedIdentifiers() {
    }

    /**
     * {@code body} with a stable {@code id}, {@code object} and {@code created} where a chat completion lacks them
     * (the id is made from the request, so that every run of a scenario sees the same one); any other body unchanged.
     */
    static byte[] restore(byte[] body, byte[] request) {
        JsonNode parsed;
        try {
            parsed = Json.readTree(body);
        } catch (RuntimeException notJson) {
            return body;
        }
        if (!(parsed instanceof ObjectNode o) || !o.has("choices")
                || (o.has("id") && o.has("created") && o.has("object"))) {
            return body;
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.set("id", o.has("id") ? o.get("id") : out.stringNode("chatcmpl-" + requestFingerprint(request)));
        out.set("object", o.has("object") ? o.get("object") : out.stringNode("chat.completion"));
        out.set("created", o.has("created") ? o.get("created")
                : out.numberNode(VirtualClock.EPOCH.getEpochSecond()));
        o.properties().forEach(e -> out.set(e.getKey(), e.getValue()));
        return Json.compact(out).getBytes(StandardCharsets.UTF_8);
    }

    private static String requestFingerprint(byte[] request) {
        try {
            return Fingerprint.of(Json.readTree(request));
        } catch (RuntimeException notJson) {
            return "replayed";
        }
    }
}
