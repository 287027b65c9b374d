package dev.resilienceharness.testing;

import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Requests whose tools a framework may list in any order, in each API shape, their recorded answers, and every order
 * of their tools.
 */
public final class ToolOrders {

    /** The most tools a test permutes: 5! = 120 orders. */
    public static final int MAX_TOOLS = 5;

    /**
     * An API shape: where its requests go, how it declares tools, how its answer carries text. Gemini's tools are the
     * function declarations of one tool, Bedrock Converse's the {@code toolSpec}s of {@code toolConfig.tools}.
     */
    public enum Shape {
        CHAT_COMPLETIONS(ApiShape.CHAT_COMPLETIONS, "/v1/chat/completions", "/choices/0/message/content"),
        RESPONSES(ApiShape.RESPONSES, "/v1/responses", "/output/0/content/0/text"),
        MESSAGES(ApiShape.MESSAGES, "/v1/messages", "/content/0/text"),
        GEMINI(ApiShape.GEMINI, "/v1beta/models/gemini-x:generateContent", "/candidates/0/content/parts/0/text"),
        BEDROCK(ApiShape.BEDROCK, "/model/anthropic.claude-x/converse", "/output/message/content/0/text");

        private final ApiShape api;
        private final String path;
        private final String textAt;

        Shape(ApiShape api, String path, String textAt) {
            this.api = api;
            this.path = path;
            this.textAt = textAt;
        }

        /** The test shape of {@code api}: every API shape has one. */
        public static Shape of(ApiShape api) {
            for (Shape s : values()) {
                if (s.api == api) {
                    return s;
                }
            }
            throw new IllegalArgumentException("no tool-order shape for " + api);
        }

        public ApiShape api() {
            return api;
        }

        public String path() {
            return path;
        }

        /** The text of an answer in this shape. */
        public String text(JsonNode answer) {
            return answer.at(textAt).asString();
        }

        /**
         * The first {@code n} of this shape's tools, in the order they were recorded (not their sorted one); the
         * Responses tools include built-ins without a name.
         */
        public List<ObjectNode> tools(int n) {
            List<ObjectNode> all = new ArrayList<>();
            for (String name : List.of("search", "read_file", "edit", "run_tests", "commit")) {
                all.add(tool(name));
            }
            if (this == RESPONSES) {
                all.set(1, obj("{\"type\": \"web_search\"}"));
                all.set(3, obj("{\"type\": \"file_search\", \"vector_store_ids\": [\"vs_1\"]}"));
            }
            return all.subList(0, n);
        }

        private ObjectNode tool(String name) {
            String schema = "{\"type\": \"object\", \"required\": [\"" + name + "_arg\"], \"properties\": {\"" + name
                    + "_arg\": {\"type\": \"string\"}}}";
            return switch (this) {
                case CHAT_COMPLETIONS -> obj("{\"type\": \"function\", \"function\": {\"name\": \"" + name
                        + "\", \"description\": \"does " + name + "\", \"parameters\": " + schema + "}}");
                case RESPONSES -> obj("{\"type\": \"function\", \"name\": \"" + name + "\", \"description\": \"does "
                        + name + "\", \"parameters\": " + schema + "}");
                case MESSAGES -> obj("{\"name\": \"" + name + "\", \"description\": \"does " + name
                        + "\", \"input_schema\": " + schema + "}");
                case GEMINI -> obj("{\"name\": \"" + name + "\", \"description\": \"does " + name
                        + "\", \"parameters\": " + schema + "}");
                case BEDROCK -> obj("{\"toolSpec\": {\"name\": \"" + name + "\", \"description\": \"does " + name
                        + "\", \"inputSchema\": {\"json\": " + schema + "}}}");
            };
        }

        /** A request asking {@code prompt} with {@code tools}, in that order. */
        public ObjectNode request(String prompt, List<? extends JsonNode> tools) {
            ObjectNode request = switch (this) {
                case CHAT_COMPLETIONS -> obj("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": "
                        + quoted(prompt) + "}]}");
                case RESPONSES -> obj("{\"model\": \"m\", \"input\": " + quoted(prompt) + "}");
                case MESSAGES -> obj("{\"model\": \"claude-x\", \"max_tokens\": 256, \"messages\": [{\"role\": "
                        + "\"user\", \"content\": " + quoted(prompt) + "}]}");
                case GEMINI -> obj("{\"model\": \"gemini-x\", \"contents\": [{\"role\": \"user\", \"parts\": "
                        + "[{\"text\": " + quoted(prompt) + "}]}]}");
                case BEDROCK -> obj("{\"modelId\": \"anthropic.claude-x\", \"messages\": [{\"role\": \"user\", "
                        + "\"content\": [{\"text\": " + quoted(prompt) + "}]}]}");
            };
            ArrayNode array = switch (this) {
                case GEMINI -> request.putArray("tools").addObject().putArray("functionDeclarations");
                case BEDROCK -> request.putObject("toolConfig").putArray("tools");
                default -> request.putArray("tools");
            };
            tools.forEach(t -> array.add(t.deepCopy()));
            return request;
        }

        /** An answer in this shape whose text is {@code text}. */
        public ObjectNode answer(String text) {
            return switch (this) {
                case CHAT_COMPLETIONS -> obj("{\"id\": \"chatcmpl-1\", \"object\": \"chat.completion\", \"created\": 1,"
                        + " \"model\": \"m\", \"choices\": [{\"index\": 0, \"message\": {\"role\": \"assistant\","
                        + " \"content\": " + quoted(text) + "}, \"finish_reason\": \"stop\"}]}");
                case RESPONSES -> obj("{\"id\": \"resp_1\", \"object\": \"response\", \"created_at\": 1, \"status\":"
                        + " \"completed\", \"model\": \"m\", \"output\": [{\"type\": \"message\", \"id\": \"msg_1\","
                        + " \"role\": \"assistant\", \"status\": \"completed\", \"content\": [{\"type\":"
                        + " \"output_text\", \"text\": " + quoted(text) + ", \"annotations\": []}]}]}");
                case MESSAGES -> obj("{\"id\": \"msg_1\", \"type\": \"message\", \"role\": \"assistant\", \"model\":"
                        + " \"claude-x\", \"content\": [{\"type\": \"text\", \"text\": " + quoted(text) + "}],"
                        + " \"stop_reason\": \"end_turn\", \"usage\": {\"input_tokens\": 9, \"output_tokens\": 5}}");
                case GEMINI -> obj("{\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\": "
                        + quoted(text) + "}]}, \"finishReason\": \"STOP\", \"index\": 0}], \"usageMetadata\":"
                        + " {\"promptTokenCount\": 9, \"candidatesTokenCount\": 5, \"totalTokenCount\": 14},"
                        + " \"modelVersion\": \"gemini-x\"}");
                case BEDROCK -> obj("{\"output\": {\"message\": {\"role\": \"assistant\", \"content\": [{\"text\": "
                        + quoted(text) + "}]}}, \"stopReason\": \"end_turn\", \"usage\": {\"inputTokens\": 9,"
                        + " \"outputTokens\": 5, \"totalTokens\": 14}, \"metrics\": {\"latencyMs\": 12}}");
            };
        }
    }

    private ToolOrders() {
    }

    /** Every order of {@code items}: n! lists, the given order first. */
    public static <T> List<List<T>> permutations(List<T> items) {
        List<List<T>> all = new ArrayList<>();
        permute(new ArrayList<>(items), 0, all);
        return all;
    }

    private static <T> void permute(List<T> items, int from, List<List<T>> all) {
        if (from >= items.size() - 1) {
            all.add(List.copyOf(items));
            return;
        }
        for (int i = from; i < items.size(); i++) {
            java.util.Collections.swap(items, from, i);
            permute(items, from + 1, all);
            java.util.Collections.swap(items, from, i);
        }
    }

    /** A copy of {@code request} with {@code tools} in place of its own. */
    public static ObjectNode withTools(ObjectNode request, List<? extends JsonNode> tools) {
        ObjectNode copy = request.deepCopy();
        ArrayNode array = declared(copy);
        array.removeAll();
        tools.forEach(t -> array.add(t.deepCopy()));
        return copy;
    }

    /** The tools of {@code request}, in its order. */
    public static List<JsonNode> toolsOf(ObjectNode request) {
        List<JsonNode> tools = new ArrayList<>();
        declared(request).forEach(tools::add);
        return tools;
    }

    /**
     * Where {@code request} lists the tools {@link Shape#request} put in it: Bedrock's {@code toolConfig.tools}, the
     * {@code functionDeclarations} of a Gemini request's one tool, else {@code tools}.
     */
    private static ArrayNode declared(ObjectNode request) {
        if (request.has("toolConfig")) {
            return (ArrayNode) request.get("toolConfig").get("tools");
        }
        ArrayNode tools = (ArrayNode) request.get("tools");
        return tools.size() == 1 && tools.get(0).has("functionDeclarations")
                ? (ArrayNode) tools.get(0).get("functionDeclarations") : tools;
    }

    private static ObjectNode obj(String json) {
        return (ObjectNode) Json.readTree(json);
    }

    private static String quoted(String text) {
        return JsonNodeFactory.instance.stringNode(text).toString();
    }
}
