package dev.resilienceharness.transport;

import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a Gemini function declaration's {@code parameters}, Google's subset of the OpenAPI 3.0 schema, as the JSON
 * Schema it means: types are upper case there ({@code OBJECT}, {@code STRING}) and become lower case, and
 * {@code nullable: true} becomes a type that also admits {@code null}. Walked along the schema's structure
 * ({@code properties}, {@code items}, {@code anyOf}), so a property that happens to be named {@code type} is left
 * alone. A schema already in JSON Schema comes back equal.
 */
final class GeminiSchema {

    private GeminiSchema() {
    }

    static JsonNode asJsonSchema(JsonNode schema) {
        if (!(schema instanceof ObjectNode o)) {
            return schema;
        }
        ObjectNode out = o.deepCopy();
        convert(out);
        return out;
    }

    private static void convert(ObjectNode schema) {
        JsonNode type = schema.get("type");
        if (type != null && type.isString()) {
            String lower = type.asString().toLowerCase(Locale.ROOT);
            if (schema.path("nullable").asBoolean(false)) {
                ArrayNode both = schema.putArray("type");
                both.add(lower).add("null");
            } else {
                schema.put("type", lower);
            }
        }
        schema.remove("nullable");
        JsonNode properties = schema.get("properties");
        if (properties instanceof ObjectNode props) {
            for (Map.Entry<String, JsonNode> e : props.properties()) {
                if (e.getValue() instanceof ObjectNode child) {
                    convert(child);
                }
            }
        }
        if (schema.get("items") instanceof ObjectNode items) {
            convert(items);
        }
        if (schema.get("anyOf") instanceof ArrayNode any) {
            for (JsonNode child : any) {
                if (child instanceof ObjectNode c) {
                    convert(c);
                }
            }
        }
    }
}
