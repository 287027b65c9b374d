package dev.resilienceharness.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class GeminiSchemaTest {

    @Test
    void upperCaseTypesAndNullableBecomeJsonSchema() {
        JsonNode openApi = Json.readTree("""
                {"type": "OBJECT", "required": ["items"], "propertyOrdering": ["items", "type"],
                 "properties": {"items": {"type": "ARRAY", "items": {"type": "INTEGER", "format": "int32"}},
                                "type": {"type": "STRING", "nullable": true, "enum": ["a", "b"]},
                                "any": {"anyOf": [{"type": "NUMBER"}, {"type": "BOOLEAN"}]}}}""");
        assertEquals(Json.readTree("""
                {"type": "object", "required": ["items"], "propertyOrdering": ["items", "type"],
                 "properties": {"items": {"type": "array", "items": {"type": "integer", "format": "int32"}},
                                "type": {"type": ["string", "null"], "enum": ["a", "b"]},
                                "any": {"anyOf": [{"type": "number"}, {"type": "boolean"}]}}}"""),
                GeminiSchema.asJsonSchema(openApi));
        assertEquals("OBJECT", openApi.path("type").asString(), "the declaration itself is left as it was");
    }

    @Test
    void aJsonSchemaComesBackEqual() {
        JsonNode schema = Json.readTree("{\"type\": \"object\", \"properties\": {\"q\": {\"type\": \"string\"}}}");
        assertEquals(schema, GeminiSchema.asJsonSchema(schema));
    }
}
