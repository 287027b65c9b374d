package dev.resilienceharness.clients.tck;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.ChunkStreams;
import dev.resilienceharness.http.GeminiStreams;
import dev.resilienceharness.http.MessageStreams;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A provider on 127.0.0.1 that the contract records from: it answers the Chat Completions, Messages, Gemini or Bedrock
 * Converse API with the answer of the op a prompt names (text and an {@code apply_patch} tool call; the streamed op's
 * text only), whole or as the API's server-sent events (Converse whole only), and keeps the key each request carried.
 */
final class ContractProvider implements AutoCloseable {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final HttpServer server;
    private final List<String> keys = Collections.synchronizedList(new ArrayList<>());

    private final ApiShape api;

    private ContractProvider(HttpServer server, ApiShape api) {
        this.server = server;
        this.api = api;
    }

    /** A provider of {@code api} alone: a request to another API's path is a 404. */
    static ContractProvider start(ApiShape api) throws IOException {
        if (api == ApiShape.RESPONSES) {
            throw new IllegalArgumentException("the contract records Chat Completions, Messages, Gemini or Bedrock"
                    + " Converse, not " + api);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ContractProvider provider = new ContractProvider(server, api);
        String path = switch (api) {
            case MESSAGES -> "/v1/messages";
            case GEMINI -> "/v1beta/models/";
            case BEDROCK -> "/model/";
            default -> "/v1/chat/completions";
        };
        server.createContext(path, e -> provider.answer(e, api));
        server.start();
        return provider;
    }

    /** The base URL the recorder sends to, with the API's version. */
    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                + (api == ApiShape.GEMINI ? "/v1beta" : api == ApiShape.BEDROCK ? "" : "/v1"));
    }

    /** The key each request that reached the provider carried, in order. */
    List<String> keys() {
        return List.copyOf(keys);
    }

    /** The text the provider answers {@code op} with. */
    static String text(String op) {
        return AdapterContract.STREAMED.equals(op) ? "the review, streamed to the loop in several chunks"
                : op + " done";
    }

    /** The arguments of the tool call the provider answers a plain op with. */
    static String arguments(String op) {
        return "{\"path\":\"" + op + ".txt\"}";
    }

    private void answer(HttpExchange exchange, ApiShape shape) throws IOException {
        if (shape == ApiShape.BEDROCK && !exchange.getRequestURI().getPath().endsWith("/converse")) {
            send(exchange, 404, "application/json", "{\"message\":\"only Converse is answered here\"}");
            return;
        }
        JsonNode request = Json.readTree(exchange.getRequestBody().readAllBytes());
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        String key = shape == ApiShape.GEMINI ? "x-goog-api-key" : "x-api-key";
        keys.add(auth != null ? auth : String.valueOf(exchange.getRequestHeaders().getFirst(key)));
        String op = op(Json.compact(request));
        JsonNode body = switch (shape) {
            case MESSAGES -> message(op);
            case GEMINI -> gemini(op);
            case BEDROCK -> converse(op);
            default -> completion(op);
        };
        // Gemini says in its path, not its body, that the answer streams.
        if (request.path("stream").asBoolean(false)
                || exchange.getRequestURI().getPath().endsWith(":streamGenerateContent")) {
            StringBuilder events = new StringBuilder();
            if (shape == ApiShape.GEMINI) {
                GeminiStreams.of(body, 0).forEach(event -> events.append(event.wire()));
            } else if (shape == ApiShape.MESSAGES) {
                MessageStreams.of(body, 0).forEach(event -> events.append(event.wire()));
            } else {
                events.append(new String(ChunkStreams.wire(Json.compact(body).getBytes(StandardCharsets.UTF_8),
                        ChunkStreams.includesUsage(Json.compact(request).getBytes(StandardCharsets.UTF_8))),
                        StandardCharsets.UTF_8));
            }
            send(exchange, "text/event-stream", events.toString());
            return;
        }
        send(exchange, "application/json", Json.compact(body));
    }

    private static String op(String request) {
        for (String op : AdapterContract.OPS) {
            if (request.contains(AdapterContract.prompt(op))) {
                return op;
            }
        }
        return "unknown";
    }

    private static ObjectNode completion(String op) {
        ObjectNode c = NODES.objectNode().put("id", "chatcmpl-contract").put("object", "chat.completion")
                .put("created", 1_767_225_600L).put("model", "gpt-4o-mini");
        ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant").put("content", text(op));
        if (!AdapterContract.STREAMED.equals(op)) {
            ObjectNode call = message.putArray("tool_calls").addObject().put("id", "call_" + op)
                    .put("type", "function");
            call.putObject("function").put("name", "apply_patch").put("arguments", arguments(op));
        }
        choice.put("finish_reason", AdapterContract.STREAMED.equals(op) ? "stop" : "tool_calls");
        c.putObject("usage").put("prompt_tokens", 12).put("completion_tokens", 3).put("total_tokens", 15);
        return c;
    }

    private static ObjectNode message(String op) {
        ObjectNode m = NODES.objectNode().put("id", "msg_contract").put("type", "message").put("role", "assistant")
                .put("model", "claude-sonnet-4-5");
        var content = m.putArray("content");
        content.addObject().put("type", "text").put("text", text(op));
        if (!AdapterContract.STREAMED.equals(op)) {
            content.addObject().put("type", "tool_use").put("id", "toolu_" + op).put("name", "apply_patch")
                    .set("input", Json.readTree(arguments(op)));
        }
        m.put("stop_reason", AdapterContract.STREAMED.equals(op) ? "end_turn" : "tool_use");
        m.putNull("stop_sequence");
        m.putObject("usage").put("input_tokens", 12).put("output_tokens", 3);
        return m;
    }

    private static ObjectNode gemini(String op) {
        ObjectNode r = NODES.objectNode();
        ObjectNode candidate = r.putArray("candidates").addObject();
        ObjectNode content = candidate.putObject("content").put("role", "model");
        var parts = content.putArray("parts");
        parts.addObject().put("text", text(op));
        if (!AdapterContract.STREAMED.equals(op)) {
            parts.addObject().putObject("functionCall").put("name", "apply_patch")
                    .set("args", Json.readTree(arguments(op)));
        }
        candidate.put("finishReason", "STOP").put("index", 0);
        r.putObject("usageMetadata").put("promptTokenCount", 12).put("candidatesTokenCount", 3)
                .put("totalTokenCount", 15);
        r.put("modelVersion", "gemini-2.5-flash").put("responseId", "contract-" + op)
                .put("createTime", "2026-01-01T00:00:00Z");
        return r;
    }

    /** A Bedrock Converse answer: the text, and the tool call as a {@code toolUse} block. */
    private static ObjectNode converse(String op) {
        ObjectNode r = NODES.objectNode();
        ObjectNode message = r.putObject("output").putObject("message").put("role", "assistant");
        var content = message.putArray("content");
        content.addObject().put("text", text(op));
        if (!AdapterContract.STREAMED.equals(op)) {
            content.addObject().putObject("toolUse").put("toolUseId", "tooluse_" + op).put("name", "apply_patch")
                    .set("input", Json.readTree(arguments(op)));
        }
        r.put("stopReason", AdapterContract.STREAMED.equals(op) ? "end_turn" : "tool_use");
        r.putObject("usage").put("inputTokens", 12).put("outputTokens", 3).put("totalTokens", 15);
        r.putObject("metrics").put("latencyMs", 120);
        return r;
    }

    private static void send(HttpExchange exchange, String type, String body) throws IOException {
        send(exchange, 200, type, body);
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
