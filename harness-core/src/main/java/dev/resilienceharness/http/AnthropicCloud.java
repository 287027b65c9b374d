package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cloud a Messages request was made through, told by the request the harness keys ({@link AnthropicCloudPaths}):
 * anthropic-java's Bedrock and Vertex AI backends put {@code anthropic_version} in the body, which Anthropic's own API
 * takes as a header, and only Bedrock's model ids name {@code anthropic.}. Each cloud has its own path, and its own
 * error body, which anthropic-java reads ({@code type()}, {@code apiMessage()}) and a loop sees.
 */
@API(status = INTERNAL, since = "0.1.0")
public enum AnthropicCloud {
    /**
     * Amazon Bedrock's InvokeModel: {@code model/{modelId}/invoke}; errors {@code {"message"}} with
     * {@code x-amzn-ErrorType}.
     */
    BEDROCK,
    /**
     * Google Vertex AI's raw prediction:
     * {@code projects/{p}/locations/{l}/publishers/anthropic/models/{model}:rawPredict}; errors
     * {@code {"error": {"code", "message", "status"}}}.
     */
    VERTEX;

    /** The cloud a Messages {@code request} was made through, or {@code null} for Anthropic's own API. */
    public static AnthropicCloud of(JsonNode request) {
        if (request == null || !request.has("anthropic_version")) {
            return null;
        }
        return request.path("model").asString("").contains("anthropic.") ? BEDROCK : VERTEX;
    }

    /**
     * The path {@code request} is posted to below the cloud's endpoint: Bedrock's {@code model/{modelId}/invoke} (or
     * {@code invoke-with-response-stream}), the model id URL-encoded as the SDK sends it; Vertex AI's
     * {@code publishers/anthropic/models/{model}:rawPredict} (or {@code :streamRawPredict}), below
     * {@code projects/{p}/locations/{l}/}.
     */
    public String path(JsonNode request) {
        String model = request.path("model").asString("");
        boolean stream = ApiShape.streams(request);
        if (this == BEDROCK) {
            return "model/" + ApiShape.modelSegment(model) + (stream ? "/invoke-with-response-stream" : "/invoke");
        }
        return "publishers/anthropic/models/" + model + (stream ? ":streamRawPredict" : ":rawPredict");
    }

    /** The body the backend sends: the request without the {@code model} its path carries (Bedrock's: nor stream). */
    public ObjectNode body(ObjectNode request) {
        ObjectNode copy = request.deepCopy();
        copy.remove("model");
        if (this == BEDROCK) {
            copy.remove("stream");
        }
        return copy;
    }

    /** An error answer's body as this cloud sends it: Bedrock's {@code {"message"}}, Google's {@code {"error"}}. */
    public ObjectNode errorBody(int status, String message) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        if (this == BEDROCK) {
            body.put("message", message);
            return body;
        }
        ObjectNode error = body.putObject("error");
        error.put("code", status);
        error.put("message", message);
        error.put("status", ApiShape.googleStatus(status));
        return body;
    }

    /** {@code headers} with, for Bedrock, the {@code x-amzn-ErrorType} naming the exception for {@code status}. */
    public Map<String, String> errorHeaders(int status, Map<String, String> headers) {
        if (this != BEDROCK) {
            return headers;
        }
        Map<String, String> out = new LinkedHashMap<>(headers);
        out.put("x-amzn-ErrorType", ApiShape.bedrockType(status));
        return out;
    }
}
