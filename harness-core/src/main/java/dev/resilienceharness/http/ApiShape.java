package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The provider APIs the harness speaks over HTTP, each with its path and its own error body: OpenAI Chat
 * Completions and Responses answer {@code {"error": {"message", "type", "code"}}}; Anthropic Messages answers
 * {@code {"type": "error", "error": {"type", "message"}}} with Anthropic's error types.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum ApiShape {
    /** {@code POST /v1/chat/completions}: tool calls in {@code choices[*].message.tool_calls}. */
    CHAT_COMPLETIONS("chat/completions"),
    /** {@code POST /v1/responses}: tool calls are the {@code function_call} items of {@code output}. */
    RESPONSES("responses"),
    /** {@code POST /v1/messages}: tool calls are the {@code tool_use} blocks of {@code content}. */
    MESSAGES("messages");

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String resource;

    ApiShape(String resource) {
        this.resource = resource;
    }

    /** The path below a base URL, without a leading slash: {@code chat/completions}, {@code responses}, ... */
    public String resource() {
        return resource;
    }

    /** The path a client posts to: {@code /v1/} followed by {@link #resource()}. */
    public String path() {
        return "/v1/" + resource;
    }

    /** The shape served at {@code path} (with or without the {@code /v1} prefix), or {@code null} for none. */
    public static ApiShape forPath(String path) {
        for (ApiShape s : values()) {
            if (path.equals(s.path()) || path.equals("/" + s.resource)) {
                return s;
            }
        }
        return null;
    }

    /** Every path served, for a message that lists them. */
    public static String paths() {
        StringBuilder sb = new StringBuilder();
        for (ApiShape s : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append("POST ").append(s.path());
        }
        return sb.toString();
    }

    /**
     * The body of an error answer in this API's own shape.
     *
     * @param status      the HTTP status, which decides Anthropic's error type
     * @param code        the OpenAI error type and code ({@code rate_limit_exceeded}, {@code cassette_miss}, ...)
     * @param message     the sentence the client shows
     * @param fingerprint the request's fingerprint, added to the error object when not {@code null}
     */
    public ObjectNode errorBody(int status, String code, String message, String fingerprint) {
        ObjectNode body = NODES.objectNode();
        if (this == MESSAGES) {
            body.put("type", "error");
            ObjectNode error = body.putObject("error");
            error.put("type", anthropicType(status));
            error.put("message", message);
            if (fingerprint != null) {
                error.put("fingerprint", fingerprint);
            }
            return body;
        }
        ObjectNode error = body.putObject("error");
        error.put("message", message);
        error.put("type", code);
        error.put("code", code);
        if (fingerprint != null) {
            error.put("fingerprint", fingerprint);
        }
        return body;
    }

    /** Anthropic's error type for a status, as its API documents them. */
    static String anthropicType(int status) {
        return switch (status) {
            case 400, 405 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 529 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }

    /** Whether {@code request} asks for a server-sent event stream. */
    public static boolean streams(JsonNode request) {
        return request != null && request.path("stream").asBoolean(false);
    }

    /** A copy of {@code request} without {@code stream} and {@code stream_options}: the same request, asked whole. */
    public static ObjectNode withoutStreaming(ObjectNode request) {
        ObjectNode copy = request.deepCopy();
        copy.remove(java.util.List.of("stream", "stream_options"));
        return copy;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
