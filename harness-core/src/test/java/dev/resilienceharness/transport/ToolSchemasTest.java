package dev.resilienceharness.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Tool schemas are checked when the request that declares them is read, before any call is validated. */
class ToolSchemasTest {

    private static JsonNode chat(String parameters) {
        return Json.readTree("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"t\", \"parameters\": "
                + parameters + "}}]}");
    }

    private static String problem(JsonNode request) {
        ToolSchemas.Unusable unusable = ToolSchemas.problem(request);
        return unusable == null ? null : unusable.toString();
    }

    @Test
    void a_usable_schema_and_a_request_without_tools_have_no_problem() {
        assertNull(problem(chat("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\","
                + " \"pattern\": \"^[a-z]+$\"}}}")));
        assertNull(problem(Json.readTree("{\"model\": \"m\"}")));
        assertNull(problem(chat("true")));
        // Recursion through properties is bounded by the arguments' own depth: it is no cycle.
        assertNull(problem(chat("{\"type\": \"object\", \"properties\": {\"child\": {\"$ref\": \"#\"}}}")));
    }

    @Test
    void a_ref_to_itself_is_a_cycle_named_by_its_path() {
        assertEquals("tools[0].function.parameters: the schema of tool 't' refers to itself in a cycle"
                + " ($ref at # leads back to #); a $ref must lead to a schema that checks something",
                problem(chat("{\"$ref\": \"#\"}")));
        assertEquals("tools[0].function.parameters: the schema of tool 't' refers to itself in a cycle"
                + " ($ref at #/$defs/b leads back to #/$defs/a); a $ref must lead to a schema that checks something",
                problem(chat("{\"$ref\": \"#/$defs/a\", \"$defs\": {\"a\": {\"allOf\": [{\"$ref\":"
                        + " \"#/$defs/b\"}]}, \"b\": {\"$ref\": \"#/$defs/a\"}}}")));
    }

    @Test
    void a_ref_that_leads_nowhere_is_named() {
        assertEquals("tools[0].function.parameters: the schema of tool 't' has a $ref at #/properties/a that leads"
                + " nowhere (#/$defs/missing)", problem(chat("{\"properties\": {\"a\": {\"$ref\":"
                + " \"#/$defs/missing\"}}}")));
    }

    @Test
    void a_ref_outside_the_document_is_refused() {
        assertEquals("tools[0].function.parameters: the schema of tool 't' refers outside itself"
                + " ($ref: file:///etc/passwd); only local references such as #/$defs/x are allowed",
                problem(chat("{\"$ref\": \"file:///etc/passwd\"}")));
    }

    @Test
    void a_schema_that_breaks_the_meta_schema_is_a_problem() {
        String problem = problem(chat("{\"type\": 12}"));
        assertTrue(problem != null && problem.startsWith("tools[0].function.parameters: the schema of tool 't' is"
                + " not a valid JSON Schema: "), problem);
        assertTrue(problem.contains("/type"), problem);
        String notObject = problem(chat("\"string\""));
        assertEquals("tools[0].function.parameters: the schema of tool 't' is not a valid JSON Schema: it is a"
                + " JSON string, where a schema is an object or true/false", notObject);
    }

    @Test
    void a_pattern_the_linear_engine_cannot_run_is_a_problem() {
        assertEquals("tools[0].function.parameters: the schema of tool 't' has a pattern at #/properties/a/pattern"
                + " that the linear-time regex engine cannot run (invalid escape sequence; lookaround and"
                + " backreferences are not supported): (a)\\1",
                problem(chat("{\"properties\": {\"a\": {\"pattern\": \"(a)\\\\1\"}}}")));
    }

    @Test
    void responses_and_messages_tools_are_read_as_well() {
        assertEquals("tools[1].parameters: the schema of tool 'u' refers to itself in a cycle ($ref at # leads"
                + " back to #); a $ref must lead to a schema that checks something",
                problem(Json.readTree("{\"tools\": [{\"type\": \"function\", \"name\": \"t\","
                        + " \"parameters\": {}}, {\"type\": \"function\", \"name\": \"u\", \"parameters\": {\"$ref\":"
                        + " \"#\"}}]}")));
        assertEquals("tools[0].input_schema: the schema of tool 'm' refers to itself in a cycle ($ref at # leads"
                + " back to #); a $ref must lead to a schema that checks something",
                problem(Json.readTree("{\"tools\": [{\"name\": \"m\", \"input_schema\": {\"$ref\":"
                        + " \"#\"}}]}")));
    }

    @Test
    void a_schema_of_an_earlier_draft_is_read_against_its_own_meta_schema_without_fetching_it() {
        for (String draft : new String[] {"http://json-schema.org/draft-07/schema#",
                "http://json-schema.org/draft-04/schema#", "https://json-schema.org/draft/2020-12/schema"}) {
            assertNull(problem(chat("{\"$schema\": \"" + draft + "\", \"type\": \"object\", \"definitions\":"
                    + " {\"p\": {\"type\": \"string\"}}, \"properties\": {\"a\": {\"$ref\":"
                    + " \"#/definitions/p\"}}}")), draft);
        }
        assertEquals("tools[0].function.parameters: the schema of tool 't' refers outside itself ($schema:"
                + " https://schemas.example.test/s); only local references such as #/$defs/x are allowed",
                problem(chat("{\"$schema\": \"https://schemas.example.test/s\"}")));
    }
}
