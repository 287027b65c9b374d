package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/** One step of a recorded MCP session: a client request and the server's answer, or a notification on its own. */
@API(status = INTERNAL, since = "0.1.0")
public sealed interface McpExchange {

    /** The method of the request or notification. */
    String method();

    /** Its params, or {@code null} when it had none. */
    JsonNode params();

    /**
     * A client request, the notifications the server sent while working on it, and its answer: a result or a
     * JSON-RPC error. The request's JSON-RPC id is not kept: it differs between runs.
     *
     * @param method           the request's method, such as {@code tools/call}
     * @param params           its params, {@code null} when it had none
     * @param notifications    the server's notifications before the answer, in the order sent
     * @param responseOffsetMs virtual milliseconds from the request to the answer, not before the last notification
     * @param result           the answer's result, or {@code null} when the answer is an error
     * @param error            the answer's error, or {@code null} when the answer is a result
     */
    @API(status = INTERNAL, since = "0.1.0")
    record Call(String method, JsonNode params, List<McpNotification> notifications, long responseOffsetMs,
                JsonNode result, McpError error) implements McpExchange {

        public Call {
            Objects.requireNonNull(method, "method");
            notifications = List.copyOf(notifications);
            if ((result == null) == (error == null)) {
                throw new IllegalArgumentException("an answer is a result or an error, exactly one of them");
            }
            if (responseOffsetMs < 0) {
                throw new IllegalArgumentException("response offset " + responseOffsetMs + " ms is negative");
            }
            long before = 0;
            for (McpNotification n : notifications) {
                if (n.offsetMs() < before) {
                    throw new IllegalArgumentException("notification " + n.method() + " at " + n.offsetMs()
                            + " ms comes before one at " + before + " ms");
                }
                before = n.offsetMs();
            }
            if (responseOffsetMs < before) {
                throw new IllegalArgumentException("the answer at " + responseOffsetMs
                        + " ms comes before a notification at " + before + " ms");
            }
        }

        /** A call answered with {@code result} after {@code offsetMs}, with no notifications. */
        public static Call answered(String method, JsonNode params, long offsetMs, JsonNode result) {
            return new Call(method, params, List.of(), offsetMs, result, null);
        }

        /** A call answered with a JSON-RPC error after {@code offsetMs}, with no notifications. */
        public static Call failed(String method, JsonNode params, long offsetMs, McpError error) {
            return new Call(method, params, List.of(), offsetMs, null, error);
        }
    }

    /**
     * A notification outside any request: the client's ({@code notifications/initialized}) or the server's
     * ({@code notifications/tools/list_changed}).
     *
     * @param from     who sent it
     * @param offsetMs virtual milliseconds after the previous exchange's answer (or the session's start)
     * @param method   the notification's method
     * @param params   its params, or {@code null} when it had none
     */
    @API(status = INTERNAL, since = "0.1.0")
    record Notice(Sender from, long offsetMs, String method, JsonNode params) implements McpExchange {

        public Notice {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(method, "method");
            if (offsetMs < 0) {
                throw new IllegalArgumentException("offset " + offsetMs + " ms is negative");
            }
        }
    }

    /** Who sent a notification. */
    @API(status = INTERNAL, since = "0.1.0")
    enum Sender {
        CLIENT("client"),
        SERVER("server");

        private final String key;

        Sender(String key) {
            this.key = key;
        }

        /** The name in a session file. */
        public String key() {
            return key;
        }

        /** The sender named {@code key}, or {@code null}. */
        public static Sender fromKey(String key) {
            for (Sender s : values()) {
                if (s.key.equals(key)) {
                    return s;
                }
            }
            return null;
        }
    }
}
