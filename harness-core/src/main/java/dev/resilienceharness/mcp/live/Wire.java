package dev.resilienceharness.mcp.live;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** One live connection to an MCP server: JSON-RPC messages out, the server's messages back. */
interface Wire extends Closeable {

    /**
     * Sends the request {@code request} (whose id is {@code id}) and returns what the server sent until its response.
     *
     * @throws IOException naming the server when it cannot be reached, exits, answers garbage or not in time
     */
    Answer request(ObjectNode request, JsonNode id, Duration timeout) throws IOException;

    /** Sends a notification, which has no answer. */
    void notify(ObjectNode notification) throws IOException;

    /** Ends the session and lets the server go. */
    @Override
    void close() throws IOException;

    /**
     * A server message and when it arrived.
     *
     * @param nanos   {@link System#nanoTime} at its arrival
     * @param message the JSON-RPC message
     */
    record Arrived(long nanos, ObjectNode message) {
    }

    /**
     * What the server sent for one request.
     *
     * @param notifications its notifications before the response, in order
     * @param response      the JSON-RPC response, a result or an error
     */
    record Answer(List<Arrived> notifications, Arrived response) {

        public Answer {
            notifications = List.copyOf(notifications);
            Objects.requireNonNull(response, "response");
        }
    }

    /** Whether {@code message} is the response to the request {@code id}. */
    static boolean answers(ObjectNode message, JsonNode id) {
        return !message.has("method") && id.equals(message.get("id"))
                && (message.has("result") || message.has("error"));
    }

    /** Whether {@code message} is a request of the server's own (it has a method and an id). */
    static boolean isServerRequest(ObjectNode message) {
        return message.has("method") && message.has("id") && !message.get("id").isNull();
    }

    /**
     * The recording client's answer to a request of the server's own mid-request: an empty result to a {@code ping},
     * else "method not found", since it serves no sampling, roots or elicitation. Neither is recorded.
     */
    static ObjectNode replyToServer(ObjectNode ask) {
        ObjectNode reply = JsonNodeFactory.instance.objectNode();
        reply.put("jsonrpc", "2.0");
        reply.set("id", ask.get("id"));
        String method = ask.path("method").asString("");
        if ("ping".equals(method)) {
            reply.putObject("result");
        } else {
            ObjectNode error = reply.putObject("error");
            error.put("code", -32601);
            error.put("message", "the recording client does not serve " + method);
        }
        return reply;
    }

    /** Whether {@code message} is a notification (a method, no id). */
    static boolean isNotification(ObjectNode message) {
        return message.has("method") && !message.has("id");
    }
}
