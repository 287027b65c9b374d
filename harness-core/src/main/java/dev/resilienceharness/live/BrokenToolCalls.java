package dev.resilienceharness.live;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code bad_tool_call} fault as real HTTP: a copy of a recorded chat completion whose tool-call arguments are
 * cut off mid-JSON, so that no client can parse them. A message without tool calls gets one, calling the first
 * tool the request declares.
 */
public final class BrokenToolCalls {

    /** Cut-off JSON: an object whose value never ends. */
    static final String BROKEN_SUFFIX = "{\"broken\": \"";

    private BrokenToolCalls() {
    }

    /** {@code completion} with every choice's tool-call arguments broken; other bodies come back unchanged. */
    public static JsonNode of(JsonNode completion, JsonNode request) {
        JsonNode choices = completion.get("choices");
        if (!completion.isObject() || choices == null || !choices.isArray() || choices.isEmpty()) {
            return completion;
        }
        ObjectNode copy = (ObjectNode) completion.deepCopy();
        for (JsonNode choice : (ArrayNode) copy.get("choices")) {
            if (!(choice instanceof ObjectNode c)) {
                continue;
            }
            JsonNode m = c.get("message");
            ObjectNode message = m instanceof ObjectNode o ? o : c.putObject("message");
            JsonNode calls = message.get("tool_calls");
            if (calls == null || !calls.isArray() || calls.isEmpty()) {
                ArrayNode added = message.putArray("tool_calls");
                ObjectNode call = added.addObject();
                call.put("id", "call_broken");
                call.put("type", "function");
                call.putObject("function").put("name", firstTool(request)).put("arguments", "");
                c.put("finish_reason", "tool_calls");
                calls = added;
            }
            for (JsonNode call : calls) {
                if (call instanceof ObjectNode oc) {
                    JsonNode f = oc.get("function");
                    ObjectNode fn = f instanceof ObjectNode of ? of : oc.putObject("function");
                    fn.put("arguments", cut(fn.path("arguments").asString("")));
                }
            }
        }
        return copy;
    }

    /** The first half of {@code args} followed by an unterminated object: never valid JSON. */
    static String cut(String args) {
        String head = args.substring(0, args.length() / 2);
        if (!head.isEmpty() && Character.isHighSurrogate(head.charAt(head.length() - 1))) {
            head = head.substring(0, head.length() - 1);
        }
        return head + BROKEN_SUFFIX;
    }

    private static String firstTool(JsonNode request) {
        JsonNode tools = request == null ? null : request.get("tools");
        if (tools != null && tools.isArray()) {
            for (JsonNode t : tools) {
                String name = t.path("function").path("name").asString("");
                if (!name.isEmpty()) {
                    return name;
                }
            }
        }
        return "tool";
    }
}
