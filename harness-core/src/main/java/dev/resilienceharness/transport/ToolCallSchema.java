package dev.resilienceharness.transport;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.resilienceharness.json.Json;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * Checks a response's tool calls ({@code choices[*].message.tool_calls[*].function.arguments}) against the
 * JSON Schema of the matching tool in the request's {@code tools} (SPEC section 5). A call whose arguments do
 * not parse, do not validate, or name a tool the request does not declare is schema-broken. Without
 * {@code tools} in the request, arguments only have to parse. Compiled schemas are cached; safe for
 * concurrent use.
 */
public final class ToolCallSchema {

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private final Map<JsonNode, Schema> compiled = new ConcurrentHashMap<>();

    /** What is wrong with {@code response}'s tool calls for {@code request}, or {@code null} when nothing is. */
    public String problem(JsonNode request, JsonNode response) {
        JsonNode choices = response == null ? null : response.get("choices");
        if (choices == null || !choices.isArray()) {
            return null;
        }
        for (int c = 0; c < choices.size(); c++) {
            JsonNode message = choices.get(c).get("message");
            JsonNode calls = message == null ? null : message.get("tool_calls");
            if (calls == null || !calls.isArray()) {
                continue;
            }
            for (int t = 0; t < calls.size(); t++) {
                String where = "choices[" + c + "].message.tool_calls[" + t + "].function";
                String problem = checkCall(request, calls.get(t).get("function"), where);
                if (problem != null) {
                    return problem;
                }
            }
        }
        return null;
    }

    /** The first {@code $ref}, {@code $schema} or {@code $id} that points outside the schema, else {@code null}. */
    static String outsideReference(JsonNode schema) {
        if (schema.isObject()) {
            for (var e : schema.properties()) {
                String key = e.getKey();
                JsonNode v = e.getValue();
                if (v.isString() && (key.equals("$ref") || key.equals("$dynamicRef") || key.equals("$id"))
                        && !v.asString().startsWith("#")) {
                    return key + ": " + v.asString();
                }
                String inner = outsideReference(v);
                if (inner != null) {
                    return inner;
                }
            }
        } else if (schema.isArray()) {
            for (JsonNode item : schema) {
                String inner = outsideReference(item);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    private String checkCall(JsonNode request, JsonNode function, String where) {
        if (function == null || !function.isObject()) {
            return where + " is missing";
        }
        JsonNode argsNode = function.get("arguments");
        if (argsNode == null || !argsNode.isString()) {
            return where + ".arguments is not a string of JSON";
        }
        JsonNode args;
        try {
            args = Json.readTree(argsNode.asString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return where + ".arguments does not parse as JSON";
        }
        JsonNode tools = request == null ? null : request.get("tools");
        if (tools == null || !tools.isArray()) {
            return null;
        }
        String name = function.path("name").asString("");
        for (JsonNode tool : tools) {
            JsonNode fn = tool.get("function");
            if (fn != null && name.equals(fn.path("name").asString(null))) {
                JsonNode parameters = fn.get("parameters");
                if (parameters == null || parameters.isNull()) {
                    return null;
                }
                String outside = outsideReference(parameters);
                if (outside != null) {
                    // Replay is offline: a schema may not make the build fetch a URL or read a local file.
                    return "the schema of tool '" + name + "' refers outside itself (" + outside + "); only local"
                            + " references such as #/$defs/x are allowed";
                }
                List<Error> errors;
                try {
                    errors = compiled.computeIfAbsent(parameters, REGISTRY::getSchema).validate(args);
                } catch (RuntimeException e) {
                    return "the schema of tool '" + name + "' is not a usable JSON Schema: " + e.getMessage();
                }
                return errors.isEmpty() ? null
                        : where + ".arguments break the schema of tool '" + name + "': " + errors.get(0).toString();
            }
        }
        return where + " calls '" + name + "', a tool the request does not declare";
    }
}
