package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import dev.resilienceharness.json.Json;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks a response's tool calls against the JSON Schema of the matching tool in the request's {@code tools}
 * (docs cassettes.md), in each provider API's shape:
 * <ul>
 *   <li>OpenAI Chat Completions: {@code choices[*].message.tool_calls[*].function.arguments}, a string of JSON,
 *       against {@code tools[*].function.parameters};</li>
 *   <li>OpenAI Responses: the {@code function_call} items of {@code output}, whose {@code arguments} string is
 *       checked against {@code parameters} of the tool {@code {type: function, name, parameters}};</li>
 *   <li>Anthropic Messages: the {@code tool_use} blocks of {@code content}, whose {@code input} object is checked
 *       against the tool's {@code input_schema};</li>
 *   <li>Gemini {@code generateContent}: the {@code functionCall} parts of {@code candidates[*].content.parts}, whose
 *       {@code args} object is checked against the function declaration's {@code parametersJsonSchema}, or its
 *       {@code parameters} (Gemini's OpenAPI subset: {@code type: OBJECT}, {@code nullable}, read as JSON Schema) in
 *       {@code tools[*].functionDeclarations}.</li>
 * </ul>
 * A call whose arguments do not parse (or, for Messages, whose input is not an object), do not validate, or name a
 * tool the request does not declare is schema-broken. Without {@code tools} in the request, arguments only have to
 * parse. Compiled schemas are cached; safe for concurrent use.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ToolCallSchema {

    private static final SchemaRegistry REGISTRY = ToolSchemas.REGISTRY;

    private final Map<JsonNode, Schema> compiled = new ConcurrentHashMap<>();
    /** Each schema's problem as {@link ToolSchemas} reads it, the empty text for none. */
    private final Map<JsonNode, String> unusable = new ConcurrentHashMap<>();

    /**
     * Sets the schema library up (some 200 classes, its dialect's keywords) by compiling and applying a small schema,
     * so that a JVM with a core to spare can do it while it reads its yaml rather than when its first scenario checks
     * a tool call, with the other runs waiting on the class's initialisation.
     */
    public static void prepare() {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode schema = nodes.objectNode().put("type", "object");
        schema.putObject("properties").putObject("path").put("type", "string");
        REGISTRY.getSchema(schema).validate(nodes.objectNode().put("path", "a.py"));
    }

    /** What is wrong with {@code response}'s tool calls for {@code request}, or {@code null} when nothing is. */
    public String problem(JsonNode request, JsonNode response) {
        if (response == null || !response.isObject()) {
            return null;
        }
        JsonNode choices = response.get("choices");
        if (choices != null && choices.isArray()) {
            return chatCompletion(request, choices);
        }
        JsonNode bedrock = response.path("output").path("message").get("content");
        if (bedrock != null && bedrock.isArray()) {
            return bedrock(request, bedrock);
        }
        JsonNode output = response.get("output");
        if (output != null && output.isArray()) {
            return responses(request, output);
        }
        JsonNode content = response.get("content");
        if (content != null && content.isArray()) {
            return messages(request, content);
        }
        JsonNode candidates = response.get("candidates");
        if (candidates != null && candidates.isArray()) {
            return gemini(request, candidates);
        }
        return null;
    }

    private String bedrock(JsonNode request, JsonNode content) {
        for (int i = 0; i < content.size(); i++) {
            JsonNode use = content.get(i).get("toolUse");
            if (use == null) {
                continue;
            }
            String where = "output.message.content[" + i + "].toolUse.input";
            JsonNode input = use.get("input");
            if (input == null || input.isNull()) {
                input = JsonNodeFactory.instance.objectNode(); // a call without arguments
            }
            if (!input.isObject()) {
                return where + " is not a JSON object" + (input.isString() && !parses(input.asString())
                        ? " (it is a string that does not parse as JSON)" : "");
            }
            String problem = checkValue(request, use.path("name").asString(""), input, where);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private String gemini(JsonNode request, JsonNode candidates) {
        for (int c = 0; c < candidates.size(); c++) {
            JsonNode parts = candidates.get(c).path("content").path("parts");
            for (int i = 0; i < parts.size(); i++) {
                JsonNode call = parts.get(i).get("functionCall");
                if (call == null) {
                    continue;
                }
                String where = "candidates[" + c + "].content.parts[" + i + "].functionCall.args";
                JsonNode args = call.get("args");
                if (args == null || args.isNull()) {
                    args = JsonNodeFactory.instance.objectNode(); // a call without arguments
                }
                if (!args.isObject()) {
                    return where + " is not a JSON object" + (args.isString() && !parses(args.asString())
                            ? " (it is a string that does not parse as JSON)" : "");
                }
                String problem = checkValue(request, call.path("name").asString(""), args, where);
                if (problem != null) {
                    return problem;
                }
            }
        }
        return null;
    }

    private String chatCompletion(JsonNode request, JsonNode choices) {
        for (int c = 0; c < choices.size(); c++) {
            JsonNode message = choices.get(c).get("message");
            JsonNode calls = message == null ? null : message.get("tool_calls");
            if (calls == null || !calls.isArray()) {
                continue;
            }
            for (int t = 0; t < calls.size(); t++) {
                String where = "choices[" + c + "].message.tool_calls[" + t + "].function";
                JsonNode function = calls.get(t).get("function");
                if (function == null || !function.isObject()) {
                    return where + " is missing";
                }
                String problem = checkArguments(request, function.path("name").asString(""), function.get("arguments"),
                        where + ".arguments");
                if (problem != null) {
                    return problem;
                }
            }
        }
        return null;
    }

    private String responses(JsonNode request, JsonNode output) {
        for (int i = 0; i < output.size(); i++) {
            JsonNode item = output.get(i);
            if (!"function_call".equals(item.path("type").asString(""))) {
                continue;
            }
            String problem = checkArguments(request, item.path("name").asString(""), item.get("arguments"),
                    "output[" + i + "].arguments");
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private String messages(JsonNode request, JsonNode content) {
        for (int i = 0; i < content.size(); i++) {
            JsonNode block = content.get(i);
            if (!"tool_use".equals(block.path("type").asString(""))) {
                continue;
            }
            String where = "content[" + i + "].input";
            JsonNode input = block.get("input");
            if (input == null || !input.isObject()) {
                return where + " is not a JSON object" + (input != null && input.isString()
                        && !parses(input.asString()) ? " (it is a string that does not parse as JSON)" : "");
            }
            String problem = checkValue(request, block.path("name").asString(""), input, where);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static boolean parses(String text) {
        try {
            Json.readTree(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Checks arguments carried as a string of JSON (Chat Completions, Responses). */
    private String checkArguments(JsonNode request, String name, JsonNode argsNode, String where) {
        if (argsNode == null || !argsNode.isString()) {
            return where + " is not a string of JSON";
        }
        JsonNode args;
        try {
            args = Json.readTree(argsNode.asString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return where + " does not parse as JSON";
        }
        return checkValue(request, name, args, where);
    }

    /** Checks parsed arguments against the schema of the tool {@code name} the request declares. */
    private String checkValue(JsonNode request, String name, JsonNode args, String where) {
        JsonNode tools = request == null ? null : request.get("tools");
        if (request != null && request.path("toolConfig").get("tools") instanceof ArrayNode
                converse) {
            tools = converse; // Bedrock Converse declares its tools in toolConfig
        }
        if (tools == null || !tools.isArray()) {
            return null;
        }
        for (JsonNode tool : declarations(tools)) {
            if (name.equals(toolName(tool))) {
                JsonNode parameters = toolSchema(tool);
                if (parameters == null || parameters.isNull()) {
                    return null;
                }
                // Replay is offline: a schema may not make the build fetch a URL or read a local file, and a cyclic
                // $ref would overflow the library's stack; a schema from a cassette or yaml was refused when read.
                String unfit = unusable.computeIfAbsent(parameters, p -> {
                    String problem = ToolSchemas.schemaProblem(p);
                    return problem == null ? "" : problem;
                });
                if (!unfit.isEmpty()) {
                    return "the schema of tool '" + name + "' " + unfit;
                }
                List<Error> errors;
                try {
                    errors = compiled.computeIfAbsent(parameters, REGISTRY::getSchema).validate(args);
                } catch (RuntimeException e) {
                    return "the schema of tool '" + name + "' is not a usable JSON Schema: " + e.getMessage();
                }
                return errors.isEmpty() ? null
                        : where + " break the schema of tool '" + name + "': " + errors.get(0).toString();
            }
        }
        String callWhere = where.substring(0, where.lastIndexOf('.'));
        return callWhere + " calls '" + name + "', a tool the request does not declare";
    }

    /** The tools of a request: its {@code tools}, a Gemini tool's {@code functionDeclarations} each one tool. */
    private static List<JsonNode> declarations(JsonNode tools) {
        List<JsonNode> out = new java.util.ArrayList<>();
        for (JsonNode tool : tools) {
            JsonNode declared = tool.get("functionDeclarations");
            if (declared != null && declared.isArray()) {
                declared.forEach(out::add);
            } else if (tool.get("toolSpec") instanceof ObjectNode spec) {
                out.add(spec);
            } else {
                out.add(tool);
            }
        }
        return out;
    }

    /** A tool's name: {@code function.name} (Chat Completions) or {@code name} (Responses, Messages). */
    private static String toolName(JsonNode tool) {
        JsonNode fn = tool.get("function");
        return fn != null && fn.isObject() ? fn.path("name").asString(null) : tool.path("name").asString(null);
    }

    /**
     * A tool's schema: {@code function.parameters}, {@code parameters}, {@code input_schema}, or a Gemini
     * declaration's {@code parametersJsonSchema} or (read as JSON Schema) {@code parameters}.
     */
    private static JsonNode toolSchema(JsonNode tool) {
        JsonNode fn = tool.get("function");
        if (fn != null && fn.isObject()) {
            return fn.get("parameters");
        }
        if (tool.path("inputSchema").has("json")) { // a Bedrock toolSpec
            return tool.get("inputSchema").get("json");
        }
        if (tool.has("parametersJsonSchema")) {
            return tool.get("parametersJsonSchema");
        }
        if (tool.has("parameters") && !tool.has("type")) { // a Gemini declaration: no "type": "function"
            return GeminiSchema.asJsonSchema(tool.get("parameters"));
        }
        return tool.has("input_schema") ? tool.get("input_schema") : tool.get("parameters");
    }
}
