package dev.resilienceharness.mcpclient;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.mcp.McpOutcome;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * An MCP server as a run's endpoint shows it to the transport, scripted: {@code initialize}, {@code tools/list} and
 * {@code tools/call} answered as a small billing server answers, and one-off outcomes queued per method for the
 * next request of it. Keeps every message it was sent and the timeout it was sent with.
 */
final class ScriptedEndpoint implements McpEndpoint {

    static final String INITIALIZE = "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":"
            + "{\"listChanged\":true}},\"serverInfo\":{\"name\":\"billing\",\"version\":\"2.1\"}}";

    static final String TOOLS = "{\"tools\":[{\"name\":\"lookup_order\",\"inputSchema\":{\"type\":\"object\","
            + "\"properties\":{\"order\":{\"type\":\"string\"}}}},{\"name\":\"refund\",\"inputSchema\":{\"type\":"
            + "\"object\",\"properties\":{\"order\":{\"type\":\"string\"}}},\"outputSchema\":{\"type\":\"object\","
            + "\"properties\":{\"refund_id\":{\"type\":\"string\"}},\"required\":[\"refund_id\"]}}]}";

    private final List<String> sent = Collections.synchronizedList(new ArrayList<>());
    private final List<Duration> timeouts = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Deque<Scripted>> queued = new ConcurrentHashMap<>();

    /** One queued answer: the outcome for the request with the given id. */
    interface Scripted {
        McpOutcome answer(JsonNode id);
    }

    @Override
    public String server() {
        return "billing";
    }

    /** The next request of {@code method} gets {@code outcome} instead of the usual answer. */
    ScriptedEndpoint next(String method, Scripted outcome) {
        queued.computeIfAbsent(method, m -> new ArrayDeque<>()).add(outcome);
        return this;
    }

    @Override
    public McpOutcome send(String message, Duration clientTimeout) {
        sent.add(message);
        timeouts.add(clientTimeout);
        JsonNode m = Json.readTree(message);
        if (!m.has("id")) {
            return new McpOutcome.Reply(List.of());
        }
        String method = m.get("method").asString();
        Deque<Scripted> q = queued.get(method);
        Scripted one = q == null ? null : q.poll();
        if (one != null) {
            return one.answer(m.get("id"));
        }
        return switch (method) {
            case "initialize" -> reply(m.get("id"), INITIALIZE);
            case "tools/list" -> reply(m.get("id"), TOOLS);
            case "tools/call" -> reply(m.get("id"), "{\"content\":[{\"type\":\"text\",\"text\":\"done "
                    + m.get("params").get("arguments").get("order").asString() + "\"}],\"structuredContent\":"
                    + "{\"refund_id\":\"r-1\"},\"isError\":false}");
            default -> reply(m.get("id"), "{}");
        };
    }

    @Override
    public void failureAnsweredAsText(String request, String text) {
        throw new UnsupportedOperationException("the MCP Java SDK never answers a failure as text");
    }

    /** A reply holding the response to {@code id} with {@code result}, after {@code before}. */
    static McpOutcome.Reply reply(JsonNode id, String result, String... before) {
        List<String> messages = new ArrayList<>(List.of(before));
        messages.add(response(id, result));
        return new McpOutcome.Reply(messages);
    }

    static String response(JsonNode id, String result) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + Json.compact(id) + ",\"result\":" + result + "}";
    }

    static String error(JsonNode id, int code, String message) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + Json.compact(id) + ",\"error\":{\"code\":" + code
                + ",\"message\":\"" + message + "\"}}";
    }

    static String notification(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\"" + (params == null ? "" : ",\"params\":" + params)
                + "}";
    }

    /** The methods of every message sent, in order. */
    List<String> methods() {
        synchronized (sent) {
            return sent.stream().map(s -> Json.readTree(s).get("method").asString()).toList();
        }
    }

    List<String> sent() {
        synchronized (sent) {
            return List.copyOf(sent);
        }
    }

    List<Duration> timeouts() {
        synchronized (timeouts) {
            return List.copyOf(timeouts);
        }
    }
}
