package dev.resilienceharness.clients.tck;

import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.http.MessageStreams;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A provider on 127.0.0.1 that adapters' tool-turn tests record from: it serves the Chat Completions, the Messages or
 * Gemini's {@code generateContent} API from a script that answers each request, typically by how many tool results the request already carries, and
 * keeps every request it received; or streams one Messages answer as its server-sent events.
 */
public final class ScriptedProvider implements AutoCloseable {

    /** The key {@link #live()} sends. */
    public static final String KEY = "sk-test";

    private final HttpServer server;
    private final ApiShape api;
    private final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());

    private ScriptedProvider(ApiShape api, UnaryOperator<JsonNode> script, boolean streams) throws IOException {
        if (api == ApiShape.RESPONSES || api == ApiShape.BEDROCK) {
            throw new IllegalArgumentException("a scripted provider serves Chat Completions, Messages or Gemini, not "
                    + api);
        }
        this.api = api;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String path = switch (api) {
            case MESSAGES -> "/v1/messages";
            case GEMINI -> "/v1beta/models/";
            default -> "/v1/chat/completions";
        };
        server.createContext(path, exchange -> {
            JsonNode request = Json.readTree(exchange.getRequestBody().readAllBytes());
            requests.add(request);
            StringBuilder text = new StringBuilder();
            if (streams) {
                MessageStreams.of(script.apply(request), 0).forEach(event -> text.append(event.wire()));
            } else {
                text.append(Json.compact(script.apply(request)));
            }
            byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", streams ? "text/event-stream" : "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    /** A provider of {@code api} whose {@code script} turns each request into the whole response body. */
    public static ScriptedProvider answering(ApiShape api, UnaryOperator<JsonNode> script) throws IOException {
        return new ScriptedProvider(api, script, false);
    }

    /**
     * A Messages provider that streams one answer to every request, as the API's server-sent events: a
     * {@code claude-sonnet-4-5} message of {@code text} alone, ended by {@code end_turn}.
     */
    public static ScriptedProvider streamingMessage(String text) throws IOException {
        ObjectNode message = JsonNodeFactory.instance.objectNode().put("id", "msg_01").put("type", "message")
                .put("role", "assistant").put("model", "claude-sonnet-4-5");
        message.putArray("content").addObject().put("type", "text").put("text", text);
        message.put("stop_reason", "end_turn").putNull("stop_sequence");
        message.putObject("usage").put("input_tokens", 12).put("output_tokens", 14);
        return new ScriptedProvider(ApiShape.MESSAGES, request -> message, true);
    }

    /**
     * A provider of {@code api} that answers a request carrying n tool results with the n-th of {@code turns} (the last
     * once they run out): for Chat Completions an assistant message ({@link #toolCall}, {@link #text}), for Messages a
     * content array ({@link #toolUse}, {@link #textBlock}), for Gemini a candidate's parts ({@link #functionCall},
     * {@link #textPart}).
     */
    public static ScriptedProvider byToolResults(ApiShape api, List<String> turns) throws IOException {
        List<String> script = List.copyOf(turns);
        return new ScriptedProvider(api, request -> {
            int results = toolResults(api, request);
            String turn = script.get(Math.min(results, script.size() - 1));
            return Json.readTree(switch (api) {
                case MESSAGES -> message(results, turn);
                case GEMINI -> candidate(turn);
                default -> chatCompletion(results, turn);
            });
        }, false);
    }

    private static String chatCompletion(int results, String message) {
        String finish = message.contains("\"tool_calls\"") ? "tool_calls" : "stop";
        return "{\"id\":\"chatcmpl-" + results + "\",\"object\":\"chat.completion\",\"created\":1767225600,"
                + "\"model\":\"gpt-5-mini\",\"choices\":[{\"index\":0,\"message\":" + message
                + ",\"finish_reason\":\"" + finish + "\"}],\"usage\":{\"prompt_tokens\":40,"
                + "\"completion_tokens\":10,\"total_tokens\":50}}";
    }

    private static String message(int results, String content) {
        String stop = content.contains("\"tool_use\"") ? "tool_use" : "end_turn";
        return "{\"id\":\"msg_" + (results + 1) + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":"
                + "\"claude-sonnet-4-5\",\"content\":" + content + ",\"stop_reason\":\"" + stop
                + "\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":20,\"output_tokens\":10}}";
    }

    private static String candidate(String parts) {
        return "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":" + parts + "},\"finishReason\":\"STOP\","
                + "\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":40,\"candidatesTokenCount\":10,"
                + "\"totalTokenCount\":50},\"modelVersion\":\"gemini-2.5-flash\"}";
    }

    /** Gemini parts asking for one function call; {@code args} is the JSON object. */
    public static String functionCall(String name, String args) {
        return "[{\"functionCall\":{\"name\":\"" + name + "\",\"args\":" + args + "}}]";
    }

    /** Gemini parts answering in text. */
    public static String textPart(String answer) {
        return "[{\"text\":" + Json.compact(JsonNodeFactory.instance.stringNode(answer)) + "}]";
    }

    /** A Chat Completions assistant message asking for one tool call; {@code arguments} is the JSON text. */
    public static String toolCall(String id, String name, String arguments) {
        return "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" + id + "\",\"type\":\"function\","
                + "\"function\":{\"name\":\"" + name + "\",\"arguments\":"
                + Json.compact(JsonNodeFactory.instance.stringNode(arguments)) + "}}]}";
    }

    /** A Chat Completions assistant message answering in text. */
    public static String text(String answer) {
        return "{\"role\":\"assistant\",\"content\":" + Json.compact(JsonNodeFactory.instance.stringNode(answer)) + "}";
    }

    /** A Messages content array asking for one tool; {@code input} is the JSON object. */
    public static String toolUse(String id, String name, String input) {
        return "[{\"type\":\"tool_use\",\"id\":\"" + id + "\",\"name\":\"" + name + "\",\"input\":" + input + "}]";
    }

    /** A Messages content array answering in text. */
    public static String textBlock(String answer) {
        return "[{\"type\":\"text\",\"text\":" + Json.compact(JsonNodeFactory.instance.stringNode(answer)) + "}]";
    }

    /**
     * How many tool results a request of {@code api} carries: {@code tool} messages, {@code tool_result} blocks or
     * Gemini's {@code functionResponse} parts.
     */
    public static int toolResults(ApiShape api, JsonNode request) {
        int n = 0;
        if (api == ApiShape.GEMINI) {
            for (JsonNode content : request.path("contents")) {
                for (JsonNode part : content.path("parts")) {
                    n += part.has("functionResponse") ? 1 : 0;
                }
            }
            return n;
        }
        for (JsonNode m : request.path("messages")) {
            if (api == ApiShape.MESSAGES) {
                for (JsonNode block : m.path("content")) {
                    n += "tool_result".equals(block.path("type").asString()) ? 1 : 0;
                }
            } else {
                n += "tool".equals(m.path("role").asString()) ? 1 : 0;
            }
        }
        return n;
    }

    /** Every request the provider received, in order. */
    public List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    /** The live path to this provider, sending {@code key}. */
    public LiveHttp live(String key) {
        return LiveHttp.to(URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                + (api == ApiShape.GEMINI ? "/v1beta" : "/v1")), key,
                Duration.ofSeconds(10));
    }

    /** The live path to this provider, sending {@link #KEY}. */
    public LiveHttp live() {
        return live(KEY);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
