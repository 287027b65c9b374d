package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class AnthropicCloudPathsTest {

    private static final String BEDROCK_BODY = "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":512,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private static ObjectNode body(String json) {
        return (ObjectNode) Json.readTree(json);
    }

    @Test
    void bedrocksInvokePathsOfAnthropicsModelsAreMatchedAndNoOtherModels() {
        assertTrue(AnthropicCloudPaths.matches("model/anthropic.claude-sonnet-4-5-20250929-v1:0/invoke"));
        assertTrue(AnthropicCloudPaths.matches("/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/"
                + "invoke-with-response-stream"));
        assertFalse(AnthropicCloudPaths.matches("model/amazon.nova-lite-v1%3A0/invoke"), "not a Messages body");
        assertFalse(AnthropicCloudPaths.matches("model/anthropic.claude-3-haiku-20240307-v1%3A0/converse"));
    }

    @Test
    void vertexRawPredictPathsOfAnthropicsModelsAreMatched() {
        assertTrue(AnthropicCloudPaths.matches("projects/p/locations/us-east5/publishers/anthropic/models/"
                + "claude-sonnet-4-5@20250929:rawPredict"));
        assertTrue(AnthropicCloudPaths.matches("/v1/projects/p/locations/global/publishers/anthropic/models/"
                + "claude-sonnet-4-5@20250929:streamRawPredict"));
        assertFalse(AnthropicCloudPaths.matches("projects/p/locations/us-central1/publishers/google/models/"
                + "gemini-2.5-flash:rawPredict"));
        assertFalse(AnthropicCloudPaths.matches("projects/p/locations/us-east5/publishers/anthropic/models/"
                + "count-tokens:countTokens"));
    }

    @Test
    void aBedrockRequestGetsTheModelFirstAndStreamsWhenItsPathDoes() {
        ObjectNode whole = AnthropicCloudPaths.request("model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke",
                body(BEDROCK_BODY));
        assertEquals(body("{\"model\":\"anthropic.claude-sonnet-4-5-20250929-v1:0\",\"anthropic_version\":"
                + "\"bedrock-2023-05-31\",\"max_tokens\":512,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"),
                whole);
        assertEquals("model", whole.propertyNames().iterator().next());
        ObjectNode streamed = AnthropicCloudPaths.request(
                "model/anthropic.claude-sonnet-4-5-20250929-v1:0/invoke-with-response-stream", body(BEDROCK_BODY));
        assertTrue(ApiShape.streams(streamed));
        assertEquals(whole, ApiShape.withoutStreaming(streamed), "a stream matches the same request asked whole");
    }

    @Test
    void aVertexRequestGetsTheModelAndKeepsTheStreamItsBodyCarries() {
        String path = "projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:";
        ObjectNode whole = AnthropicCloudPaths.request(path + "rawPredict",
                body("{\"anthropic_version\":\"vertex-2023-10-16\",\"max_tokens\":512}"));
        assertEquals(body("{\"model\":\"claude-sonnet-4-5@20250929\",\"anthropic_version\":\"vertex-2023-10-16\","
                + "\"max_tokens\":512}"), whole);
        ObjectNode streamed = AnthropicCloudPaths.request(path + "streamRawPredict",
                body("{\"anthropic_version\":\"vertex-2023-10-16\",\"max_tokens\":512,\"stream\":true}"));
        assertTrue(ApiShape.streams(streamed));
        assertEquals(whole, ApiShape.withoutStreaming(streamed));
    }

    @Test
    void aModelTheBodyAlreadyNamesIsKeptAndOtherPathsAreNone() {
        ObjectNode keyed = AnthropicCloudPaths.request("model/anthropic.claude-x/invoke",
                body("{\"model\":\"as-sent\"}"));
        assertEquals(body("{\"model\":\"as-sent\"}"), keyed);
        assertNull(AnthropicCloudPaths.request("messages", body("{\"model\":\"m\"}")));
        assertNull(AnthropicCloudPaths.request("model/amazon.nova-lite-v1%3A0/invoke", body("{}")));
    }
}
