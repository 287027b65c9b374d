package dev.resilienceharness.clients.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.mcp.McpOutcome;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * An MCP endpoint for the transport's own tests: it answers each method with the outcomes queued for it, then as a
 * server with one tool, {@code refund}, would, and keeps every message and client timeout it was given. The scenario
 * runs of {@link Langchain4jMcpTest} drive the harness's real endpoint.
 */
final class ScriptedMcpServer implements McpEndpoint {

    static final ObjectMapper JSON = new ObjectMapper();

    static final String TOOLS = "{\"tools\":[{\"name\":\"refund\",\"description\":\"Refunds an order\","
            + "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"}}}}]}";

    final List<String> sent = new ArrayList<>();
    final List<Duration> timeouts = new ArrayList<>();
    final List<String> answeredAsText = new ArrayList<>();
    final List<String> waited = new ArrayList<>();
    private final Map<String, Deque<Function<Long, McpOutcome>>> queued = new HashMap<>();

    ScriptedMcpServer then(String method, Function<Long, McpOutcome> outcome) {
        queued.computeIfAbsent(method, m -> new ArrayDeque<>()).add(outcome);
        return this;
    }

    @Override
    public String server() {
        return "billing";
    }

    @Override
    public synchronized McpOutcome send(String message, Duration clientTimeout) {
        sent.add(message);
        timeouts.add(clientTimeout);
        JsonNode m = read(message);
        String method = m.path("method").asText();
        if (!m.has("id")) {
            return new McpOutcome.Reply(List.of());
        }
        long id = m.get("id").asLong();
        Deque<Function<Long, McpOutcome>> q = queued.get(method);
        if (q != null && !q.isEmpty()) {
            return q.poll().apply(id);
        }
        return switch (method) {
            case "initialize" -> reply(id, "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":"
                    + "{\"listChanged\":true}},\"serverInfo\":{\"name\":\"billing\",\"version\":\"3\"}}");
            case "tools/list" -> reply(id, TOOLS);
            case "tools/call" -> reply(id, text("refunded order " + m.path("params").path("arguments")
                    .path("order").asText()));
            default -> reply(id, "{}");
        };
    }

    @Override
    public synchronized void failureAnsweredAsText(String request, String text) {
        answeredAsText.add(read(request).path("id").asText() + ": " + text);
    }

    @Override
    public synchronized void clientWaited(String request, Duration waited) {
        this.waited.add(read(request).path("id").asText() + ": " + waited.toSeconds() + "s");
    }

    synchronized List<String> methods() {
        return sent.stream().map(s -> read(s).path("method").asText()).toList();
    }

    static McpOutcome.Reply reply(long id, String result) {
        return new McpOutcome.Reply(List.of("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}"));
    }

    static String text(String text) {
        return "{\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}";
    }

    static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }
}
