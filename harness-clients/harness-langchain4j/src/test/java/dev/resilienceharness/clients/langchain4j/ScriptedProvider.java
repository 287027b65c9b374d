package dev.resilienceharness.clients.langchain4j;

import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * An OpenAI-compatible provider on 127.0.0.1 for recording tool turns: it answers a chat completion by how many tool
 * results the request already carries, from a script of assistant messages (the first asks for a tool, the last
 * answers in text).
 */
final class ScriptedProvider implements AutoCloseable {

    private final HttpServer server;
    private final List<String> messages;

    private ScriptedProvider(List<String> messages) throws IOException {
        this.messages = List.copyOf(messages);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            JsonNode request = Json.readTree(exchange.getRequestBody().readAllBytes());
            int results = 0;
            for (JsonNode m : request.path("messages")) {
                if ("tool".equals(m.path("role").asString())) {
                    results++;
                }
            }
            String message = this.messages.get(Math.min(results, this.messages.size() - 1));
            String finish = message.contains("\"tool_calls\"") ? "tool_calls" : "stop";
            byte[] body = ("{\"id\":\"chatcmpl-" + results + "\",\"object\":\"chat.completion\",\"created\":1767225600,"
                    + "\"model\":\"gpt-5-mini\",\"choices\":[{\"index\":0,\"message\":" + message
                    + ",\"finish_reason\":\"" + finish + "\"}],\"usage\":{\"prompt_tokens\":40,"
                    + "\"completion_tokens\":10,\"total_tokens\":50}}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    /** The refund turn: look the order up, refund it, then say so. */
    static ScriptedProvider refundTurn() throws IOException {
        return new ScriptedProvider(List.of(
                toolCall("call_lookup", "lookup_order", "{\"order\":\"A1\"}"),
                toolCall("call_refund", "refund", "{\"order\":\"A1\",\"refund_id\":\"r-A1\"}"),
                "{\"role\":\"assistant\",\"content\":\"" + ToolLoop.ANSWER + "\"}"));
    }

    private static String toolCall(String id, String name, String arguments) {
        return "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" + id + "\",\"type\":\"function\","
                + "\"function\":{\"name\":\"" + name + "\",\"arguments\":" + Json.compact(
                        tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(arguments)) + "}}]}";
    }

    LiveHttp live() {
        return LiveHttp.to(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1"), "sk-test",
                Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
