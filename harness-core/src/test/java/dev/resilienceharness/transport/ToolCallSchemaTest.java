package dev.resilienceharness.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The mixed corpus's shape: a request declaring {@code apply_patch} with a JSON Schema for its arguments. */
class ToolCallSchemaTest {

    private static final JsonNode REQUEST = Json.readTree("""
            {"model": "m-1",
             "messages": [{"role": "user", "content": "patch the repo"}],
             "tools": [{"type": "function", "function": {"name": "apply_patch", "parameters": {
                 "type": "object", "required": ["path", "diff"],
                 "properties": {"path": {"type": "string"}, "diff": {"type": "string"}},
                 "additionalProperties": false}}}]}
            """);

    private static final JsonNode NO_TOOLS = Json.readTree("""
            {"model": "m-1", "messages": [{"role": "user", "content": "patch the repo"}]}
            """);

    private static final String WHERE = "choices[0].message.tool_calls[0].function";

    /** A response with one choice whose tool calls carry these (name, arguments) pairs. */
    private static JsonNode response(String... nameAndArgs) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode message = root.putArray("choices").addObject().put("index", 0).putObject("message");
        message.put("role", "assistant").putNull("content");
        var calls = message.putArray("tool_calls");
        for (int i = 0; i < nameAndArgs.length; i += 2) {
            ObjectNode call = calls.addObject().put("id", "call_" + i).put("type", "function");
            call.putObject("function").put("name", nameAndArgs[i]).put("arguments", nameAndArgs[i + 1]);
        }
        return root;
    }

    private final ToolCallSchema schema = new ToolCallSchema();

    @Test
    void setting_the_library_up_ahead_leaves_checks_as_they_are() {
        // The forked check calls it on a spare core and drops what it throws: here it must not throw at all.
        ToolCallSchema.prepare();
        assertNull(schema.problem(REQUEST, response("apply_patch", "{\"path\": \"a.py\", \"diff\": \"+x\"}")));
        assertNotNull(schema.problem(REQUEST, response("apply_patch", "{\"path\": 3, \"diff\": \"+x\"}")));
    }

    @Test
    void arguments_that_fit_the_schema_are_fine() {
        assertNull(schema.problem(REQUEST, response("apply_patch", "{\"path\": \"a.py\", \"diff\": \"+x\"}")));
    }

    @Test
    void arguments_that_do_not_parse_are_a_problem() {
        assertEquals(WHERE + ".arguments does not parse as JSON",
                schema.problem(REQUEST, response("apply_patch", "{\"path\": \"a.py\", ")));
        assertEquals(WHERE + ".arguments does not parse as JSON",
                schema.problem(REQUEST, response("apply_patch", "")));
    }

    @Test
    void a_missing_required_argument_breaks_the_schema() {
        String problem = schema.problem(REQUEST, response("apply_patch", "{\"path\": \"a.py\"}"));
        assertNotNull(problem);
        assertTrue(problem.startsWith(WHERE + ".arguments break the schema of tool 'apply_patch': "), problem);
        assertTrue(problem.contains("diff"), problem);
    }

    @Test
    void an_argument_the_schema_does_not_declare_breaks_it_under_additional_properties_false() {
        String problem = schema.problem(REQUEST,
                response("apply_patch", "{\"path\": \"a.py\", \"diff\": \"+x\", \"force\": true}"));
        assertNotNull(problem);
        assertTrue(problem.startsWith(WHERE + ".arguments break the schema of tool 'apply_patch': "), problem);
        assertTrue(problem.contains("force"), problem);
    }

    @Test
    void an_argument_of_the_wrong_type_breaks_the_schema() {
        assertNotNull(schema.problem(REQUEST, response("apply_patch", "{\"path\": 7, \"diff\": \"+x\"}")));
    }

    @Test
    void a_tool_the_request_does_not_declare_is_a_problem() {
        assertEquals(WHERE + " calls 'delete_repo', a tool the request does not declare",
                schema.problem(REQUEST, response("delete_repo", "{}")));
    }

    @Test
    void without_tools_in_the_request_the_arguments_only_have_to_parse() {
        assertNull(schema.problem(NO_TOOLS, response("anything", "{\"path\": \"a.py\"}")));
        assertEquals(WHERE + ".arguments does not parse as JSON",
                schema.problem(NO_TOOLS, response("anything", "{not json")));
    }

    @Test
    void a_response_without_tool_calls_is_fine() {
        assertNull(schema.problem(REQUEST, Json.readTree(
                "{\"choices\": [{\"index\": 0, \"message\": {\"role\": \"assistant\", \"content\": \"done\"}}]}")));
        assertNull(schema.problem(REQUEST, Json.readTree("{\"done\": \"plan\"}")));
        assertNull(schema.problem(REQUEST, null));
    }

    @Test
    void the_first_broken_call_is_named_by_its_path() {
        String problem = schema.problem(REQUEST, response(
                "apply_patch", "{\"path\": \"a.py\", \"diff\": \"+x\"}",
                "apply_patch", "{\"path\": \"b.py\"}"));
        assertNotNull(problem);
        assertTrue(problem.startsWith("choices[0].message.tool_calls[1].function.arguments break the schema"),
                problem);
    }

    @Test
    void arguments_that_are_not_a_string_are_a_problem() {
        ObjectNode r = (ObjectNode) response("apply_patch", "{}");
        ((ObjectNode) r.get("choices").get(0).get("message").get("tool_calls").get(0).get("function"))
                .putObject("arguments").put("path", "a.py");
        assertEquals(WHERE + ".arguments is not a string of JSON", schema.problem(REQUEST, r));
    }

    @Test
    void a_schema_that_refers_outside_itself_is_refused_without_fetching_anything() {
        ToolCallSchema schemas = new ToolCallSchema();
        for (String ref : new String[] {"https://schemas.example.test/x.json", "file:///etc/passwd"}) {
            JsonNode request = Json.readTree("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"t\","
                    + " \"parameters\": {\"$ref\": \"" + ref + "\"}}}]}");
            JsonNode response = Json.readTree("{\"choices\": [{\"message\": {\"tool_calls\": [{\"function\":"
                    + " {\"name\": \"t\", \"arguments\": \"{}\"}}]}}]}");
            assertEquals("the schema of tool 't' refers outside itself ($ref: " + ref + "); only local references"
                    + " such as #/$defs/x are allowed", schemas.problem(request, response));
        }
    }

    @Test
    void a_schema_that_is_no_schema_is_a_problem_not_an_exception() {
        JsonNode request = Json.readTree("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"t\","
                + " \"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"pattern\": \"(\"}}}}}]}");
        JsonNode response = Json.readTree("{\"choices\": [{\"message\": {\"tool_calls\": [{\"function\":"
                + " {\"name\": \"t\", \"arguments\": \"{\\\"a\\\": \\\"x\\\"}\"}}]}}]}");
        String problem = new ToolCallSchema().problem(request, response);
        assertNotNull(problem);
    }

    // --- OpenAI Responses: function_call items in output, tools {type: function, name, parameters} ---------------

    private static final JsonNode RESPONSES_REQUEST = Json.readTree("""
            {"model": "m-1", "input": "patch the repo",
             "tools": [{"type": "function", "name": "apply_patch", "parameters": {
                 "type": "object", "required": ["path", "diff"],
                 "properties": {"path": {"type": "string"}, "diff": {"type": "string"}}}}]}
            """);

    private static JsonNode responsesOutput(String name, String arguments) {
        ObjectNode root = JsonNodeFactory.instance.objectNode().put("object", "response");
        var output = root.putArray("output");
        output.addObject().put("type", "message").putArray("content").addObject().put("type", "output_text")
                .put("text", "patching");
        output.addObject().put("type", "function_call").put("call_id", "call_1").put("name", name)
                .put("arguments", arguments);
        return root;
    }

    @Test
    void responses_function_calls_are_checked_against_the_tools_parameters() {
        assertNull(schema.problem(RESPONSES_REQUEST, responsesOutput("apply_patch",
                "{\"path\": \"a.py\", \"diff\": \"+x\"}")));
        assertEquals("output[1].arguments does not parse as JSON",
                schema.problem(RESPONSES_REQUEST, responsesOutput("apply_patch", "{\"path\": ")));
        String broken = schema.problem(RESPONSES_REQUEST, responsesOutput("apply_patch", "{\"path\": \"a.py\"}"));
        assertTrue(broken.startsWith("output[1].arguments break the schema of tool 'apply_patch': "), broken);
        assertEquals("output[1] calls 'rm', a tool the request does not declare",
                schema.problem(RESPONSES_REQUEST, responsesOutput("rm", "{}")));
        assertNull(schema.problem(NO_TOOLS, responsesOutput("rm", "{}")), "without tools, arguments only parse");
    }

    // --- Anthropic Messages: tool_use blocks in content, tools {name, input_schema} --------------------------------

    private static final JsonNode MESSAGES_REQUEST = Json.readTree("""
            {"model": "claude-x", "max_tokens": 100, "messages": [{"role": "user", "content": "patch the repo"}],
             "tools": [{"name": "apply_patch", "description": "apply a diff", "input_schema": {
                 "type": "object", "required": ["path", "diff"],
                 "properties": {"path": {"type": "string"}, "diff": {"type": "string"}}}}]}
            """);

    private static JsonNode toolUse(String name, JsonNode input) {
        ObjectNode root = JsonNodeFactory.instance.objectNode().put("type", "message").put("role", "assistant");
        var content = root.putArray("content");
        content.addObject().put("type", "text").put("text", "patching");
        ObjectNode use = content.addObject().put("type", "tool_use").put("id", "toolu_1").put("name", name);
        use.set("input", input);
        root.put("stop_reason", "tool_use");
        return root;
    }

    @Test
    void messages_tool_use_input_is_checked_against_the_input_schema() {
        assertNull(schema.problem(MESSAGES_REQUEST, toolUse("apply_patch",
                Json.readTree("{\"path\": \"a.py\", \"diff\": \"+x\"}"))));
        String broken = schema.problem(MESSAGES_REQUEST, toolUse("apply_patch", Json.readTree("{\"path\": 3}")));
        assertTrue(broken.startsWith("content[1].input break the schema of tool 'apply_patch': "), broken);
        assertEquals("content[1].input is not a JSON object (it is a string that does not parse as JSON)",
                schema.problem(MESSAGES_REQUEST, toolUse("apply_patch", Json.readTree("\"{\\\"path\""))));
        assertEquals("content[1].input is not a JSON object",
                schema.problem(MESSAGES_REQUEST, toolUse("apply_patch", Json.readTree("[1]"))));
        assertEquals("content[1] calls 'rm', a tool the request does not declare",
                schema.problem(MESSAGES_REQUEST, toolUse("rm", Json.readTree("{}"))));
        assertNull(schema.problem(MESSAGES_REQUEST, Json.readTree("{\"type\":\"message\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"no tools called\"}]}")));
    }

    @Test
    void a_backtracking_pattern_met_by_a_long_argument_ends_at_once() {
        // java.util.regex takes exponential time here; the linear-time engine answers in microseconds.
        JsonNode request = Json.readTree("{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"t\","
                + " \"parameters\": {\"type\": \"object\", \"properties\": {\"slug\": {\"type\": \"string\","
                + " \"pattern\": \"^([a-z0-9]+[-_]?){1,50}$\"}}}}}]}");
        String slug = "a".repeat(40) + "!";
        String problem = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> new ToolCallSchema().problem(request, response("t", "{\"slug\": \"" + slug + "\"}")));
        assertTrue(problem != null && problem.startsWith(WHERE + ".arguments break the schema of tool 't': "),
                problem);
        assertNull(new ToolCallSchema().problem(request, response("t", "{\"slug\": \"my-slug_2\"}")));
    }

    // --- Gemini: functionCall parts in candidates, tools [{functionDeclarations: [{name, parameters}]}] ------------

    private static final JsonNode GEMINI_REQUEST = Json.readTree("""
            {"model": "gemini-2.5-flash", "contents": [{"role": "user", "parts": [{"text": "patch the repo"}]}],
             "tools": [{"functionDeclarations": [
                 {"name": "apply_patch", "description": "apply a diff", "parameters": {
                     "type": "OBJECT", "required": ["path", "diff"],
                     "properties": {"path": {"type": "STRING"}, "diff": {"type": "STRING"},
                                    "note": {"type": "STRING", "nullable": true}}}},
                 {"name": "search", "parametersJsonSchema": {"type": "object", "required": ["query"],
                     "properties": {"query": {"type": "string"}}, "additionalProperties": false}},
                 {"name": "now"}]}]}
            """);

    private static JsonNode functionCall(String name, JsonNode args) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode candidate = root.putArray("candidates").addObject();
        ObjectNode content = candidate.putObject("content").put("role", "model");
        var parts = content.putArray("parts");
        parts.addObject().put("text", "patching");
        ObjectNode call = parts.addObject().putObject("functionCall").put("name", name);
        if (args != null) {
            call.set("args", args);
        }
        candidate.put("finishReason", "STOP");
        return root;
    }

    @Test
    void gemini_function_calls_are_checked_against_the_declarations_parameters() {
        assertNull(schema.problem(GEMINI_REQUEST, functionCall("apply_patch",
                Json.readTree("{\"path\": \"a.py\", \"diff\": \"+x\", \"note\": null}"))));
        String broken = schema.problem(GEMINI_REQUEST, functionCall("apply_patch", Json.readTree("{\"path\": 3}")));
        assertTrue(broken.startsWith("candidates[0].content.parts[1].functionCall.args break the schema of tool"
                + " 'apply_patch': "), broken);
        assertEquals("candidates[0].content.parts[1].functionCall.args is not a JSON object (it is a string that does"
                + " not parse as JSON)", schema.problem(GEMINI_REQUEST, functionCall("apply_patch",
                        Json.readTree("\"{\\\"path\""))));
        assertEquals("candidates[0].content.parts[1].functionCall calls 'rm', a tool the request does not declare",
                schema.problem(GEMINI_REQUEST, functionCall("rm", Json.readTree("{}"))));
        assertNull(schema.problem(GEMINI_REQUEST, functionCall("now", null)), "a call without args has none");
        assertNull(schema.problem(GEMINI_REQUEST, Json.readTree("{\"candidates\": [{\"content\": {\"parts\":"
                + " [{\"text\": \"no tools called\"}]}}]}")));
    }

    @Test
    void gemini_parameters_json_schema_is_used_as_it_is() {
        assertNull(schema.problem(GEMINI_REQUEST, functionCall("search", Json.readTree("{\"query\": \"q\"}"))));
        String extra = schema.problem(GEMINI_REQUEST, functionCall("search",
                Json.readTree("{\"query\": \"q\", \"limit\": 3}")));
        assertTrue(extra != null && extra.contains("break the schema of tool 'search'"), extra);
    }

    @Test
    void bedrockToolUseIsCheckedAgainstTheToolSpecsInputSchema() {
        JsonNode request = Json.readTree("{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"fix a.py\"}]}],"
                + "\"toolConfig\":{\"tools\":[{\"toolSpec\":{\"name\":\"apply_patch\",\"inputSchema\":{\"json\":"
                + "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}}}}]}}");
        assertNull(schema.problem(request, Json.readTree("{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"ok\"},"
                + "{\"toolUse\":{\"toolUseId\":\"t1\",\"name\":\"apply_patch\",\"input\":{\"path\":\"a.py\"}}}]}},"
                + "\"stopReason\":\"tool_use\",\"usage\":{\"inputTokens\":3,\"outputTokens\":2,\"totalTokens\":5}}")));
        String problem = schema.problem(request, Json.readTree("{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"ok\"},"
                + "{\"toolUse\":{\"toolUseId\":\"t1\",\"name\":\"apply_patch\",\"input\":{\"path\":3}}}]}},"
                + "\"stopReason\":\"tool_use\",\"usage\":{\"inputTokens\":3,\"outputTokens\":2,\"totalTokens\":5}}"));
        assertTrue(problem.startsWith("output.message.content[1].toolUse.input break the schema of tool 'apply_patch'"),
                problem);
        assertEquals("output.message.content[1].toolUse calls 'edit', a tool the request does not declare",
                schema.problem(request, Json.readTree("{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"ok\"},"
                + "{\"toolUse\":{\"toolUseId\":\"t1\",\"name\":\"edit\",\"input\":{}}}]}},"
                + "\"stopReason\":\"tool_use\",\"usage\":{\"inputTokens\":3,\"outputTokens\":2,\"totalTokens\":5}}")));
    }
}
