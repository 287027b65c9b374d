package dev.resilienceharness.tool;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.transport.ToolSchemas;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The result an {@code invalid_result} tool fault hands back: the tool's own result with a required property taken
 * out when that breaks its {@code output_schema}, else the first of a few values of the wrong shape that does. Always
 * checked against the schema, so the result really breaks it.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class BrokenResult {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private BrokenResult() {
    }

    /** A value that breaks {@code schema} regardless of any real result, or {@code null} when none does. */
    public static JsonNode of(JsonNode schema) {
        return of(schema, null);
    }

    /**
     * {@code result} (JSON text, or {@code null}) made to break {@code schema}; {@code null} when no candidate does
     * (a schema that accepts every value).
     */
    public static JsonNode of(JsonNode schema, String result) {
        for (JsonNode candidate : candidates(schema, result)) {
            if (ToolSchemas.violation(schema, candidate) != null) {
                return candidate;
            }
        }
        return null;
    }

    private static List<JsonNode> candidates(JsonNode schema, String result) {
        List<JsonNode> out = new ArrayList<>();
        JsonNode real = Json.readTreeOrNull(result);
        JsonNode required = schema.path("required");
        if (real instanceof ObjectNode object && required.isArray()) {
            for (JsonNode name : required) {
                if (name.isString() && object.has(name.asString())) {
                    ObjectNode without = object.deepCopy();
                    without.remove(name.asString());
                    out.add(without);
                    break;
                }
            }
        }
        out.add(NODES.objectNode());
        String type = schema.path("type").isString() ? schema.path("type").asString() : "";
        out.add(switch (type) {
            case "object" -> NODES.stringNode("not an object");
            case "string" -> NODES.numberNode(42);
            case "array" -> NODES.objectNode().put("not", "an array");
            case "number", "integer" -> NODES.stringNode("not a number");
            case "boolean" -> NODES.stringNode("not a boolean");
            default -> NODES.nullNode();
        });
        out.add(NODES.nullNode());
        out.add(NODES.stringNode("unexpected"));
        out.add(NODES.numberNode(0));
        out.add(NODES.arrayNode());
        out.add(NODES.booleanNode(true));
        return out;
    }
}
