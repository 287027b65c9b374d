package dev.resilienceharness.drift;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The tool calls in an answer, in each provider API's shape: Chat Completions'
 * {@code choices[*].message.tool_calls[*]}, the {@code function_call} items of a Responses {@code output}, the
 * {@code tool_use} blocks of a Messages {@code content}, the {@code functionCall} parts of a Gemini candidate,
 * and the {@code toolUse} blocks of a Bedrock Converse {@code output.message.content}.
 */
final class ToolCalls {

    /**
     * One call.
     *
     * @param container where the answer keeps its calls ({@code choices[0].message.tool_calls}), the path named
     *                  when they are gone
     * @param path      the call itself ({@code choices[0].message.tool_calls[0]})
     * @param namePath  where its tool's name is
     * @param name      the tool's name, or {@code ""}
     */
    record Call(String container, String path, String namePath, String name) {
    }

    private ToolCalls() {
    }

    /** Every tool call in {@code response}, in document order. */
    static List<Call> in(JsonNode response) {
        List<Call> calls = new ArrayList<>();
        if (response == null || !response.isObject()) {
            return calls;
        }
        JsonNode content = response.path("output").path("message").get("content");
        if (content != null && content.isArray()) {
            String container = "output.message.content";
            for (int i = 0; i < content.size(); i++) {
                JsonNode use = content.get(i).get("toolUse");
                if (use != null) {
                    String path = container + "[" + i + "]";
                    calls.add(new Call(container, path, path + ".toolUse.name", use.path("name").asString("")));
                }
            }
            return calls;
        }
        JsonNode choices = response.get("choices");
        if (choices != null && choices.isArray()) {
            for (int c = 0; c < choices.size(); c++) {
                JsonNode list = choices.get(c).path("message").get("tool_calls");
                if (list == null || !list.isArray()) {
                    continue;
                }
                String container = "choices[" + c + "].message.tool_calls";
                for (int t = 0; t < list.size(); t++) {
                    String path = container + "[" + t + "]";
                    calls.add(new Call(container, path, path + ".function.name",
                            list.get(t).path("function").path("name").asString("")));
                }
            }
            return calls;
        }
        JsonNode candidates = response.get("candidates");
        if (candidates != null && candidates.isArray()) {
            for (int c = 0; c < candidates.size(); c++) {
                JsonNode parts = candidates.get(c).path("content").path("parts");
                String container = "candidates[" + c + "].content.parts";
                for (int i = 0; i < parts.size(); i++) {
                    JsonNode call = parts.get(i).get("functionCall");
                    if (call != null) {
                        String path = container + "[" + i + "]";
                        calls.add(new Call(container, path, path + ".functionCall.name",
                                call.path("name").asString("")));
                    }
                }
            }
            return calls;
        }
        blocks(response.get("output"), "output", "function_call", calls);
        blocks(response.get("content"), "content", "tool_use", calls);
        return calls;
    }

    private static void blocks(JsonNode list, String container, String type, List<Call> calls) {
        if (list == null || !list.isArray()) {
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            if (type.equals(item.path("type").asString(""))) {
                String path = container + "[" + i + "]";
                calls.add(new Call(container, path, path + ".name", item.path("name").asString("")));
            }
        }
    }
}
