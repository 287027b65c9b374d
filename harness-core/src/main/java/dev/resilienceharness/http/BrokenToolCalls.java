package dev.resilienceharness.http;

import dev.resilienceharness.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code bad_tool_call} fault as real HTTP: a copy of a recorded answer whose tool calls are cut off mid-JSON,
 * so that no client can parse them. Chat Completions and Responses carry arguments as a string, which is cut;
 * Anthropic Messages carries {@code input} as an object, and Gemini a {@code functionCall}'s {@code args}: each
 * becomes a string of cut-off JSON. An answer without tool calls gets one, calling the first tool the request
 * declares.
 */
final class BrokenToolCalls {

    /** Cut-off JSON: an object whose value never ends. */
    static final String BROKEN_SUFFIX = "{\"broken\": \"";

    private BrokenToolCalls() {
    }

    /** {@code answer} with every tool call broken; a body that is not one of {@code shape}'s comes back unchanged. */
    static JsonNode of(ApiShape shape, JsonNode answer, JsonNode request) {
        return switch (shape) {
            case CHAT_COMPLETIONS -> chat(answer, request);
            case RESPONSES -> responses(answer, request);
            case MESSAGES -> messages(answer, request);
            case GEMINI -> gemini(answer, request);
            case BEDROCK -> bedrock(answer, request);
        };
    }

    private static JsonNode chat(JsonNode completion, JsonNode request) {
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

    private static JsonNode responses(JsonNode response, JsonNode request) {
        JsonNode output = response.get("output");
        if (!response.isObject() || output == null || !output.isArray()) {
            return response;
        }
        ObjectNode copy = (ObjectNode) response.deepCopy();
        ArrayNode items = (ArrayNode) copy.get("output");
        boolean found = false;
        for (JsonNode item : items) {
            if (item instanceof ObjectNode o && "function_call".equals(o.path("type").asString(""))) {
                o.put("arguments", cut(o.path("arguments").asString("")));
                found = true;
            }
        }
        if (!found) {
            ObjectNode call = items.addObject();
            call.put("type", "function_call");
            call.put("id", "fc_broken");
            call.put("call_id", "call_broken");
            call.put("name", firstTool(request));
            call.put("arguments", cut(""));
            call.put("status", "completed");
        }
        return copy;
    }

    private static JsonNode messages(JsonNode message, JsonNode request) {
        JsonNode content = message.get("content");
        if (!message.isObject() || content == null || !content.isArray()) {
            return message;
        }
        ObjectNode copy = (ObjectNode) message.deepCopy();
        ArrayNode blocks = (ArrayNode) copy.get("content");
        boolean found = false;
        for (JsonNode block : blocks) {
            if (block instanceof ObjectNode o && "tool_use".equals(o.path("type").asString(""))) {
                JsonNode input = o.get("input");
                o.put("input", cut(input == null ? "" : Json.compact(input)));
                found = true;
            }
        }
        if (!found) {
            ObjectNode use = blocks.addObject();
            use.put("type", "tool_use");
            use.put("id", "toolu_broken");
            use.put("name", firstTool(request));
            use.put("input", cut(""));
            copy.put("stop_reason", "tool_use");
        }
        return copy;
    }

    private static JsonNode gemini(JsonNode answer, JsonNode request) {
        JsonNode candidates = answer.get("candidates");
        if (!answer.isObject() || candidates == null || !candidates.isArray() || candidates.isEmpty()) {
            return answer;
        }
        ObjectNode copy = (ObjectNode) answer.deepCopy();
        for (JsonNode c : copy.get("candidates")) {
            if (!(c instanceof ObjectNode candidate)) {
                continue;
            }
            JsonNode content = candidate.get("content");
            ObjectNode body = content instanceof ObjectNode o ? o : candidate.putObject("content");
            if (!body.has("role")) {
                body.put("role", "model");
            }
            JsonNode p = body.get("parts");
            ArrayNode parts = p instanceof ArrayNode a ? a : body.putArray("parts");
            boolean found = false;
            for (JsonNode part : parts) {
                if (part.get("functionCall") instanceof ObjectNode call) {
                    JsonNode args = call.get("args");
                    call.put("args", cut(args == null ? "" : Json.compact(args)));
                    found = true;
                }
            }
            if (!found) {
                parts.addObject().putObject("functionCall").put("name", firstTool(request)).put("args", cut(""));
                candidate.put("finishReason", "STOP");
            }
        }
        return copy;
    }

    /** A Converse answer's {@code toolUse} blocks with their {@code input} a string of cut-off JSON. */
    private static JsonNode bedrock(JsonNode answer, JsonNode request) {
        if (!(answer.path("output").path("message") instanceof ObjectNode)) {
            return answer;
        }
        ObjectNode copy = (ObjectNode) answer.deepCopy();
        ObjectNode message = (ObjectNode) copy.get("output").get("message");
        JsonNode c = message.get("content");
        ArrayNode content = c instanceof ArrayNode a ? a : message.putArray("content");
        boolean found = false;
        for (JsonNode block : content) {
            if (block.get("toolUse") instanceof ObjectNode use) {
                JsonNode input = use.get("input");
                use.put("input", cut(input == null ? "" : Json.compact(input)));
                found = true;
            }
        }
        if (!found) {
            content.addObject().putObject("toolUse").put("toolUseId", "tooluse_broken")
                    .put("name", firstTool(request)).put("input", cut(""));
            copy.put("stopReason", "tool_use");
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

    /** The name of the first tool {@code request} declares, in any of the five shapes; {@code tool} for none. */
    private static String firstTool(JsonNode request) {
        JsonNode tools = request == null ? null : request.get("tools");
        if (request != null && request.path("toolConfig").get("tools") instanceof ArrayNode converse) {
            tools = converse;
        }
        if (tools != null && tools.isArray()) {
            for (JsonNode t : tools) {
                if (!t.path("toolSpec").path("name").asString("").isEmpty()) {
                    return t.get("toolSpec").get("name").asString();
                }
                for (JsonNode declaration : t.path("functionDeclarations")) {
                    if (!declaration.path("name").asString("").isEmpty()) {
                        return declaration.get("name").asString();
                    }
                }
                String name = t.path("function").path("name").asString(t.path("name").asString(""));
                if (!name.isEmpty()) {
                    return name;
                }
            }
        }
        return "tool";
    }
}
