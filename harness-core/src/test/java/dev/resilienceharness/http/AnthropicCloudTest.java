package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class AnthropicCloudTest {

    static ObjectNode keyed(String path, String body) {
        return ApiShape.request(path, (ObjectNode) Json.readTree(body));
    }

    @Test
    void theKeyedRequestOfEachBackendTellsItsCloud() {
        ObjectNode bedrock = keyed("model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke",
                "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":64,\"messages\":[]}");
        ObjectNode profile = keyed("model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke",
                "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":64,\"messages\":[]}");
        ObjectNode vertex = keyed("v1/projects/p/locations/us-east5/publishers/anthropic/models/"
                + "claude-sonnet-4-5@20250929:streamRawPredict",
                "{\"anthropic_version\":\"vertex-2023-10-16\",\"max_tokens\":64,\"messages\":[]}");
        assertEquals(AnthropicCloud.BEDROCK, AnthropicCloud.of(bedrock));
        assertEquals(AnthropicCloud.BEDROCK, AnthropicCloud.of(profile));
        assertEquals(AnthropicCloud.VERTEX, AnthropicCloud.of(vertex));
        assertNull(AnthropicCloud.of(Json.readTree("{\"model\":\"claude-sonnet-4-5\",\"messages\":[]}")),
                "Anthropic's own API takes anthropic-version as a header");
        assertNull(AnthropicCloud.of(null));
    }

    @Test
    void eachCloudsPathAndBodyAreTheBackendsOwn() {
        ObjectNode bedrock = keyed("model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke",
                "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":64,\"messages\":[]}");
        assertEquals("model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke", AnthropicCloud.BEDROCK.path(bedrock));
        assertEquals(Json.readTree("{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":64,\"messages\":[]}"),
                AnthropicCloud.BEDROCK.body(bedrock));
        ObjectNode streamed = bedrock.deepCopy().put("stream", true);
        assertEquals("model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream",
                AnthropicCloud.BEDROCK.path(streamed));
        assertFalse(AnthropicCloud.BEDROCK.body(streamed).has("stream"), "Bedrock streams by its path only");

        ObjectNode vertex = keyed("v1/projects/p/locations/l/publishers/anthropic/models/claude-sonnet-4-5@20250929"
                + ":streamRawPredict", "{\"anthropic_version\":\"vertex-2023-10-16\",\"stream\":true}");
        assertEquals("publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
                AnthropicCloud.VERTEX.path(vertex));
        assertEquals(Json.readTree("{\"stream\":true,\"anthropic_version\":\"vertex-2023-10-16\"}"),
                AnthropicCloud.VERTEX.body(vertex), "the Vertex backend keeps stream in the body");
        vertex.remove("stream");
        assertTrue(AnthropicCloud.VERTEX.path(vertex).endsWith(":rawPredict"));
    }

    @Test
    void eachCloudAnswersErrorsInItsOwnBody() {
        assertEquals(Json.readTree("{\"message\":\"slow down\"}"), AnthropicCloud.BEDROCK.errorBody(429, "slow down"));
        assertEquals(Map.of("x-amzn-ErrorType", "ThrottlingException", "Retry-After", "1"),
                AnthropicCloud.BEDROCK.errorHeaders(429, Map.of("Retry-After", "1")));
        assertEquals(Json.readTree("{\"error\":{\"code\":503,\"message\":\"busy\",\"status\":\"UNAVAILABLE\"}}"),
                AnthropicCloud.VERTEX.errorBody(503, "busy"));
        assertEquals(Map.of(), AnthropicCloud.VERTEX.errorHeaders(503, Map.of()));
    }
}
