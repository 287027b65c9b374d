package dev.resilienceharness.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Anthropic's Messages API as the clouds serve it, where the model and the streaming are in the path, not in the body:
 * Amazon Bedrock's {@code model/{modelId}/invoke} and {@code invoke-with-response-stream} (for Anthropic's models,
 * whose ids name {@code anthropic.}), and Google Vertex AI's
 * {@code projects/{p}/locations/{l}/publishers/anthropic/models/{model}:rawPredict} and {@code :streamRawPredict}. The
 * body is a Messages body with an {@code anthropic_version}; {@link #request} folds the path's model and streaming
 * into it, so that such a request is keyed, matched and replayed as a Messages request is.
 */
final class AnthropicCloudPaths {

    /** Bedrock's InvokeModel for one of Anthropic's models: any id naming {@code anthropic.}, URL-encoded or not. */
    private static final Pattern BEDROCK = Pattern.compile(
            "(?:^|/)model/([^/]*anthropic\\.[^/]*)/(invoke|invoke-with-response-stream)$");

    /** Vertex AI's raw prediction of one of Anthropic's models; any prefix ({@code v1/}) before it. */
    private static final Pattern VERTEX = Pattern.compile(
            "(?:^|/)publishers/anthropic/models/([^/:]+):(rawPredict|streamRawPredict)$");

    private AnthropicCloudPaths() {
    }

    /** Whether {@code path} (without its query) is one of these paths. */
    static boolean matches(String path) {
        return BEDROCK.matcher(path).find() || VERTEX.matcher(path).find();
    }

    /** Whether {@code path} (without its query) is Bedrock's {@code invoke} or {@code invoke-with-response-stream}. */
    static boolean bedrock(String path) {
        return BEDROCK.matcher(path).find();
    }

    /** Whether {@code path} (without its query) is Bedrock's {@code invoke-with-response-stream} of such a model. */
    static boolean bedrockStream(String path) {
        Matcher m = BEDROCK.matcher(path);
        return m.find() && m.group(2).equals("invoke-with-response-stream");
    }

    /**
     * {@code body} with the model its path names first, as {@code model}, and {@code stream: true} when the path
     * streams, unless the body has them already; {@code null} when {@code path} (without its query) is none of these.
     */
    static ObjectNode request(String path, ObjectNode body) {
        Matcher m = BEDROCK.matcher(path);
        if (!m.find()) {
            m = VERTEX.matcher(path);
            if (!m.find()) {
                return null;
            }
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("model", body.path("model").asString(URLDecoder.decode(m.group(1), StandardCharsets.UTF_8)));
        if (m.group(2).startsWith("invoke-with") || m.group(2).startsWith("stream")
                || body.path("stream").asBoolean(false)) {
            out.put("stream", true);
        }
        body.properties().forEach(e -> {
            if (!out.has(e.getKey())) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }
}
