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
 * {@code {"type": "error", "error": {"type", "message"}}} with Anthropic's error types; Google's Gemini API answers
 * {@code {"error": {"code", "message", "status"}}} with Google's canonical status names.
 *
 * <p>Gemini names the model and whether the answer streams in its path ({@code models/{model}:generateContent},
 * {@code models/{model}:streamGenerateContent?alt=sse}), not in its body: {@link #request} folds both into the body
 * the harness keys and replays, as {@code model} and {@code stream}, so that the four shapes are matched alike.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum ApiShape {
    /** {@code POST /v1/chat/completions}: tool calls in {@code choices[*].message.tool_calls}. */
    CHAT_COMPLETIONS("chat/completions"),
    /** {@code POST /v1/responses}: tool calls are the {@code function_call} items of {@code output}. */
    RESPONSES("responses"),
    /** {@code POST /v1/messages}: tool calls are the {@code tool_use} blocks of {@code content}. */
    MESSAGES("messages"),
    /**
     * {@code POST /v1beta/models/{model}:generateContent} and {@code :streamGenerateContent}: tool calls are the
     * {@code functionCall} parts of {@code candidates[*].content.parts}.
     */
    GEMINI("models/{model}:generateContent"),
    /**
     * {@code POST /model/{modelId}/converse} and {@code /converse-stream}: Amazon Bedrock's Converse; tool calls are
     * the {@code toolUse} blocks of {@code output.message.content}, its errors {@code {"message"}} named by
     * {@code x-amzn-ErrorType}; ConverseStream answers in AWS event-stream frames ({@link EventStreamFrames}).
     */
    BEDROCK("model/{modelId}/converse");

    /**
     * A Bedrock Converse path: the model id (URL-encoded, as the AWS SDK sends it), then the operation,
     * {@code converse} or {@code converse-stream} (answered as an AWS event stream, see {@link BedrockStreams}).
     */
    private static final java.util.regex.Pattern BEDROCK_PATH = java.util.regex.Pattern.compile(
            "(?:^|/)model/([^/]+)/(converse|converse-stream)$");

    /** A Gemini path: the model, then the method; any prefix ({@code v1beta/}, a Vertex project) before it. */
    private static final java.util.regex.Pattern GEMINI_PATH = java.util.regex.Pattern.compile(
            "(?:^|/)models/([^/:]+):(generateContent|streamGenerateContent)$");

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String resource;

    ApiShape(String resource) {
        this.resource = resource;
    }

    /** The path below a base URL, without a leading slash: {@code chat/completions}, {@code responses}, ... */
    public String resource() {
        return resource;
    }

    /** The path a client posts to: {@code /v1/} followed by {@link #resource()} ({@code /v1beta/} for Gemini). */
    public String path() {
        return (this == GEMINI ? "/v1beta/" : this == BEDROCK ? "/" : "/v1/") + resource;
    }

    /**
     * The shape served at {@code path} (with or without the {@code /v1} prefix; a query is ignored), or {@code null}
     * for none.
     */
    public static ApiShape forPath(String path) {
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        if (GEMINI_PATH.matcher(path).find()) {
            return GEMINI;
        }
        if (AnthropicCloudPaths.matches(path)) {
            return MESSAGES; // Anthropic's Messages API on Bedrock (invoke) and Vertex AI (rawPredict)
        }
        if (BEDROCK_PATH.matcher(path).find()) {
            return BEDROCK;
        }
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
            if (s != BEDROCK) {
                sb.append(sb.length() == 0 ? "" : ", ").append("POST ").append(s.path());
            }
        }
        return sb.append(", POST ").append(GEMINI.path().replace(":generateContent", ":streamGenerateContent"))
                .append(", POST ").append(BEDROCK.path()).append(", POST ").append(BEDROCK.path()).append("-stream")
                .toString();
    }

    /**
     * The request body the harness keys, matches and replays for a request posted to {@code path}: {@code body}
     * itself, except for Gemini, whose model and streaming the path carries; its body gets them as {@code model} and
     * {@code stream: true} (a {@code streamGenerateContent}), unless it has them already. So does a Messages body
     * posted to Anthropic's models on Bedrock ({@code model/{modelId}/invoke}, {@code invoke-with-response-stream})
     * or Vertex AI ({@code publishers/anthropic/models/{model}:rawPredict}, {@code :streamRawPredict}).
     */
    public static ObjectNode request(String path, ObjectNode body) {
        int query = path.indexOf('?');
        java.util.regex.Matcher m = GEMINI_PATH.matcher(query >= 0 ? path.substring(0, query) : path);
        if (body == null) {
            return null;
        }
        ObjectNode onCloud = AnthropicCloudPaths.request(query >= 0 ? path.substring(0, query) : path, body);
        if (onCloud != null) {
            return onCloud;
        }
        if (!m.find()) {
            return bedrockRequest(query >= 0 ? path.substring(0, query) : path, body);
        }
        ObjectNode out = NODES.objectNode();
        out.put("model", body.path("model").asString(m.group(1)));
        if ("streamGenerateContent".equals(m.group(2)) || body.path("stream").asBoolean(false)) {
            out.put("stream", true);
        }
        body.properties().forEach(e -> {
            if (!out.has(e.getKey())) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }

    /**
     * A Bedrock request with the {@code modelId} its path carries first in it, and {@code stream: true} after it for a
     * {@code converse-stream}, as Gemini's; any other body as it is.
     */
    private static ObjectNode bedrockRequest(String path, ObjectNode body) {
        java.util.regex.Matcher m = BEDROCK_PATH.matcher(path);
        if (!m.find()) {
            return body;
        }
        boolean stream = "converse-stream".equals(m.group(2));
        if (body.has("modelId") && (!stream || body.has("stream"))) {
            return body;
        }
        ObjectNode out = NODES.objectNode();
        out.put("modelId", body.path("modelId").asString(
                java.net.URLDecoder.decode(m.group(1), java.nio.charset.StandardCharsets.UTF_8)));
        if (stream) {
            out.put("stream", true);
        }
        body.properties().forEach(e -> {
            if (!out.has(e.getKey())) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }

    /**
     * The path a Bedrock request is posted to, below the endpoint: {@code model/{modelId}/converse}, or
     * {@code model/{modelId}/converse-stream} when it streams.
     */
    public static String bedrockPath(JsonNode request) {
        return "model/" + modelSegment(request.path("modelId").asString("")) + "/converse"
                + (streams(request) ? "-stream" : "");
    }

    /** A Bedrock model id as a path segment, URL-encoded as the AWS SDK and anthropic-java send it. */
    static String modelSegment(String modelId) {
        return java.net.URLEncoder.encode(modelId, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The body Bedrock itself is sent: the request without the {@code modelId} and {@code stream} its path carries. */
    public static ObjectNode bedrockBody(ObjectNode request) {
        ObjectNode copy = request.deepCopy();
        copy.remove(java.util.List.of("modelId", "stream"));
        return copy;
    }

    /**
     * The path a Gemini request is posted to, below the API version: {@code models/{model}:generateContent}, or
     * {@code :streamGenerateContent?alt=sse} when it streams.
     */
    public static String geminiPath(JsonNode request) {
        String model = request.path("model").asString("");
        if (model.startsWith("models/")) {
            model = model.substring("models/".length());
        }
        return "models/" + model + (streams(request) ? ":streamGenerateContent?alt=sse" : ":generateContent");
    }

    /** The body Gemini itself is sent: the request without the {@code model} and {@code stream} the path carries. */
    public static ObjectNode geminiBody(ObjectNode request) {
        ObjectNode copy = request.deepCopy();
        copy.remove(java.util.List.of("model", "stream"));
        return copy;
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
        if (this == GEMINI) {
            ObjectNode error = body.putObject("error");
            error.put("code", status);
            error.put("message", message);
            error.put("status", googleStatus(status));
            if (fingerprint != null) {
                error.put("fingerprint", fingerprint);
            }
            return body;
        }
        if (this == BEDROCK) {
            body.put("__type", bedrockType(status)); // read when a proxy drops the x-amzn-ErrorType header
            body.put("message", message);
            if (fingerprint != null) {
                body.put("fingerprint", fingerprint);
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

    /**
     * The headers an error answer carries besides {@code headers}: for Bedrock, {@code x-amzn-ErrorType} naming the
     * exception, which the AWS SDK reads first to choose the exception it throws; the others need none.
     */
    public java.util.Map<String, String> errorHeaders(int status, java.util.Map<String, String> headers) {
        if (this != BEDROCK) {
            return headers;
        }
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>(headers);
        out.put("x-amzn-ErrorType", bedrockType(status));
        return out;
    }

    /** Bedrock Runtime's exception for an HTTP status, as its API reference lists them. */
    static String bedrockType(int status) {
        return switch (status) {
            case 400, 413 -> "ValidationException";
            case 401 -> "UnrecognizedClientException";
            case 403 -> "AccessDeniedException";
            case 404 -> "ResourceNotFoundException";
            case 408, 504 -> "ModelTimeoutException";
            case 409 -> "ConflictException";
            case 424 -> "ModelErrorException";
            case 429 -> "ThrottlingException";
            case 503, 529 -> "ServiceUnavailableException";
            default -> status >= 500 ? "InternalServerException" : "ValidationException";
        };
    }

    /** Google's canonical status name for an HTTP status, as the Gemini API's errors carry it. */
    static String googleStatus(int status) {
        return switch (status) {
            case 400, 413 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 405, 501 -> "UNIMPLEMENTED";
            case 409 -> "ABORTED";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 499 -> "CANCELLED";
            case 502, 503, 529 -> "UNAVAILABLE";
            case 504 -> "DEADLINE_EXCEEDED";
            default -> status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
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
