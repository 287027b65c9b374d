package dev.resilienceharness.clients.tck;

import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.json.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The provider's side of a three-round tool turn, in the Chat Completions, the Messages or Gemini's format: by how many tool
 * results came back, it asks for the order ({@code lookupOrder}), then for the parcel ({@code trackParcel}), then
 * answers {@link #FINAL_ANSWER}. Each tool's one parameter is named as the request's schema names it.
 */
public final class OrderTurn {

    public static final String FINAL_ANSWER = "Order A-1042 has shipped; parcel TRK-77 is out for delivery.";

    private OrderTurn() {
    }

    /** The team's tools of the turn, run when the model asks for them; they keep what they ran. */
    public static final class Tools {
        private final List<String> ran = Collections.synchronizedList(new ArrayList<>());

        public String lookupOrder(String orderId) {
            ran.add("lookupOrder " + orderId);
            return "order " + orderId + " shipped with parcel TRK-77";
        }

        public String trackParcel(String parcel) {
            ran.add("trackParcel " + parcel);
            return "parcel " + parcel + " is out for delivery";
        }

        /** Runs the tool {@code name} with the model's arguments. */
        public String run(String name, JsonNode args) {
            return switch (name) {
                case "lookupOrder" -> lookupOrder(args.path("orderId").asString());
                case "trackParcel" -> trackParcel(args.path("parcel").asString());
                default -> throw new IllegalArgumentException("no tool " + name);
            };
        }

        /** What ran, one {@code "name argument"} line each, in order. */
        public List<String> ran() {
            return List.copyOf(ran);
        }
    }

    /** The response to {@code request}, in {@code api}'s format. */
    public static JsonNode answer(ApiShape api, JsonNode request) {
        int results = ScriptedProvider.toolResults(api, request);
        String tool = results == 0 ? "lookupOrder" : "trackParcel";
        String value = results == 0 ? "A-1042" : "TRK-77";
        return switch (api) {
            case MESSAGES -> message(request, results, tool, value);
            case GEMINI -> gemini(request, results, tool, value);
            default -> chatCompletion(request, results, tool, value);
        };
    }

    private static JsonNode gemini(JsonNode request, int results, String tool, String value) {
        ObjectNode response = Json.mapper().createObjectNode();
        ObjectNode candidate = response.putArray("candidates").addObject();
        var parts = candidate.putObject("content").put("role", "model").putArray("parts");
        if (results < 2) {
            ObjectNode call = parts.addObject().putObject("functionCall").put("name", tool);
            call.putObject("args").put(parameter(request, tool), value);
        } else {
            parts.addObject().put("text", FINAL_ANSWER);
        }
        candidate.put("finishReason", "STOP").put("index", 0);
        response.putObject("usageMetadata").put("promptTokenCount", 40).put("candidatesTokenCount", 12)
                .put("totalTokenCount", 52);
        response.put("modelVersion", "gemini-2.5-flash");
        return response;
    }

    private static JsonNode chatCompletion(JsonNode request, int results, String tool, String value) {
        ObjectNode response = Json.mapper().createObjectNode();
        response.put("id", "chatcmpl-" + (results + 1)).put("object", "chat.completion")
                .put("created", 1767225600).put("model", request.path("model").asString());
        ObjectNode choice = response.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        if (results < 2) {
            message.putNull("content");
            ObjectNode call = message.putArray("tool_calls").addObject().put("id", "call_" + tool)
                    .put("type", "function");
            call.putObject("function").put("name", tool)
                    .put("arguments", "{\"" + parameter(request, tool) + "\":\"" + value + "\"}");
            choice.put("finish_reason", "tool_calls");
        } else {
            message.put("content", FINAL_ANSWER);
            choice.put("finish_reason", "stop");
        }
        response.putObject("usage").put("prompt_tokens", 40).put("completion_tokens", 12).put("total_tokens", 52);
        return response;
    }

    private static JsonNode message(JsonNode request, int results, String tool, String value) {
        ObjectNode response = Json.mapper().createObjectNode();
        response.put("id", "msg_0" + (results + 1)).put("type", "message").put("role", "assistant")
                .put("model", request.path("model").asString());
        var content = response.putArray("content");
        if (results < 2) {
            ObjectNode use = content.addObject().put("type", "tool_use").put("id", "toolu_" + tool).put("name", tool);
            use.putObject("input").put(parameter(request, tool), value);
            response.put("stop_reason", "tool_use");
        } else {
            content.addObject().put("type", "text").put("text", FINAL_ANSWER);
            response.put("stop_reason", "end_turn");
        }
        response.putNull("stop_sequence");
        response.putObject("usage").put("input_tokens", 40).put("output_tokens", 12);
        return response;
    }

    /** The tool's one parameter as the request's schema names it (Chat Completions, Messages or Gemini tools). */
    private static String parameter(JsonNode request, String tool) {
        for (JsonNode t : request.path("tools")) {
            for (JsonNode declaration : t.path("functionDeclarations")) {
                if (tool.equals(declaration.path("name").asString())) {
                    JsonNode schema = declaration.has("parameters") ? declaration.path("parameters")
                            : declaration.path("parametersJsonSchema");
                    return schema.path("properties").propertyNames().iterator().next();
                }
            }
            JsonNode function = t.has("function") ? t.path("function") : t;
            if (tool.equals(function.path("name").asString())) {
                JsonNode schema = t.has("function") ? function.path("parameters") : t.path("input_schema");
                return schema.path("properties").propertyNames().iterator().next();
            }
        }
        throw new IllegalStateException("the request offers no tool " + tool + ": " + request);
    }
}
