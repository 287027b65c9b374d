package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ApiShapeTest {

    @Test
    void eachShapeIsServedWithAndWithoutV1() {
        assertEquals(ApiShape.CHAT_COMPLETIONS, ApiShape.forPath("/v1/chat/completions"));
        assertEquals(ApiShape.CHAT_COMPLETIONS, ApiShape.forPath("/chat/completions"));
        assertEquals(ApiShape.RESPONSES, ApiShape.forPath("/v1/responses"));
        assertEquals(ApiShape.MESSAGES, ApiShape.forPath("/v1/messages"));
        assertEquals(ApiShape.MESSAGES, ApiShape.forPath("/messages"));
        assertNull(ApiShape.forPath("/v1/embeddings"));
        assertEquals("POST /v1/chat/completions, POST /v1/responses, POST /v1/messages,"
                + " POST /v1beta/models/{model}:generateContent, POST /v1beta/models/{model}:streamGenerateContent,"
                + " POST /model/{modelId}/converse, POST /model/{modelId}/converse-stream",
                ApiShape.paths());
    }

    @Test
    void geminiIsServedAtItsModelsPathsWhateverComesBefore() {
        assertEquals(ApiShape.GEMINI, ApiShape.forPath("/v1beta/models/gemini-2.5-flash:generateContent"));
        assertEquals(ApiShape.GEMINI, ApiShape.forPath("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"));
        assertEquals(ApiShape.GEMINI, ApiShape.forPath("/v1beta1/projects/p/locations/us-central1/publishers/google/"
                + "models/gemini-2.5-pro:generateContent"));
        assertNull(ApiShape.forPath("/v1beta/models/gemini-2.5-flash:countTokens"));
        assertNull(ApiShape.forPath("/v1beta/models"));
    }

    @Test
    void geminiErrorsCarryGooglesStatus() {
        assertEquals(Json.readTree("{\"error\":{\"code\":429,\"message\":\"slow\",\"status\":\"RESOURCE_EXHAUSTED\"}}"),
                ApiShape.GEMINI.errorBody(429, "rate_limit_exceeded", "slow", null));
        assertEquals(Json.readTree("{\"error\":{\"code\":404,\"message\":\"no cassette\",\"status\":\"NOT_FOUND\","
                + "\"fingerprint\":\"0123\"}}"), ApiShape.GEMINI.errorBody(404, "cassette_miss", "no cassette", "0123"));
        assertEquals("UNAVAILABLE", ApiShape.googleStatus(503));
        assertEquals("INTERNAL", ApiShape.googleStatus(500));
        assertEquals("DEADLINE_EXCEEDED", ApiShape.googleStatus(504));
        assertEquals("INVALID_ARGUMENT", ApiShape.googleStatus(400));
        assertEquals("UNAUTHENTICATED", ApiShape.googleStatus(401));
    }

    @Test
    void aGeminiRequestGetsTheModelAndStreamingItsPathCarries() {
        ObjectNode body = (ObjectNode) Json.readTree("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}]}");
        ObjectNode whole = ApiShape.request("/v1beta/models/gemini-2.5-flash:generateContent", body);
        assertEquals(Json.readTree("{\"model\":\"gemini-2.5-flash\",\"contents\":[{\"role\":\"user\","
                + "\"parts\":[{\"text\":\"hi\"}]}]}"), whole);
        ObjectNode streamed = ApiShape.request("v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", body);
        assertTrue(ApiShape.streams(streamed));
        assertEquals(whole, ApiShape.withoutStreaming(streamed), "a stream matches the same request asked whole");
        assertEquals("models/gemini-2.5-flash:streamGenerateContent?alt=sse", ApiShape.geminiPath(streamed));
        assertEquals("models/gemini-2.5-flash:generateContent", ApiShape.geminiPath(whole));
        assertEquals(body, ApiShape.geminiBody(streamed), "Gemini itself is sent the body as the SDK built it");
        assertEquals(body, ApiShape.request("/v1/chat/completions", body), "other shapes are left as they are");
    }

    @Test
    void openAiErrorsAreAnErrorObject() {
        ObjectNode body = ApiShape.RESPONSES.errorBody(404, "cassette_miss", "no cassette", "0123456789abcdef");
        assertEquals(Json.readTree("{\"error\":{\"message\":\"no cassette\",\"type\":\"cassette_miss\","
                + "\"code\":\"cassette_miss\",\"fingerprint\":\"0123456789abcdef\"}}"), body);
    }

    @Test
    void anthropicErrorsCarryAnthropicsTypes() {
        assertEquals(Json.readTree("{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow\"}}"),
                ApiShape.MESSAGES.errorBody(429, "rate_limit_exceeded", "slow", null));
        assertEquals("not_found_error", ApiShape.anthropicType(404));
        assertEquals("request_too_large", ApiShape.anthropicType(413));
        assertEquals("api_error", ApiShape.anthropicType(503));
        assertEquals("overloaded_error", ApiShape.anthropicType(529));
        assertEquals("invalid_request_error", ApiShape.anthropicType(400));
    }

    @Test
    void aRequestStreamsOnlyWhenItSaysSo() {
        assertTrue(ApiShape.streams(Json.readTree("{\"stream\":true}")));
        assertFalse(ApiShape.streams(Json.readTree("{\"stream\":false}")));
        assertFalse(ApiShape.streams(Json.readTree("{}")));
        assertFalse(ApiShape.streams(null));
    }

    @Test
    void withoutStreamingIsTheSameRequestAskedWhole() {
        ObjectNode streamed = (ObjectNode) Json.readTree("{\"model\":\"m\",\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true},\"messages\":[]}");
        assertEquals(Json.readTree("{\"model\":\"m\",\"messages\":[]}"), ApiShape.withoutStreaming(streamed));
        assertTrue(ApiShape.streams(streamed), "the request itself is left as it was");
    }

    @Test
    void bedrockConverseIsServedAtItsModelPathWithTheModelIdFoldedIn() {
        assertEquals(ApiShape.BEDROCK, ApiShape.forPath("/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse"));
        assertNull(ApiShape.forPath("/model/amazon.nova-lite-v1%3A0/invoke"));
        ObjectNode body = (ObjectNode) Json.readTree("{\"messages\":[]}");
        ObjectNode keyed = ApiShape.request("/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse", body);
        assertEquals(Json.readTree("{\"modelId\":\"anthropic.claude-3-haiku-20240307-v1:0\",\"messages\":[]}"), keyed);
        assertEquals("model/anthropic.claude-3-haiku-20240307-v1%3A0/converse", ApiShape.bedrockPath(keyed));
        assertEquals(body, ApiShape.bedrockBody(keyed), "Bedrock itself is sent the body as the SDK built it");
    }

    @Test
    void anthropicsModelsOnBedrockAndVertexAreTheMessagesShapeWithTheirPathsModelFoldedIn() {
        String bedrock = "/model/anthropic.claude-sonnet-4-5-20250929-v1:0/invoke";
        String vertex = "/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:"
                + "streamRawPredict";
        assertEquals(ApiShape.MESSAGES, ApiShape.forPath(bedrock));
        assertEquals(ApiShape.MESSAGES, ApiShape.forPath(bedrock + "-with-response-stream"));
        assertEquals(ApiShape.MESSAGES, ApiShape.forPath(vertex));
        assertEquals(ApiShape.MESSAGES, ApiShape.forPath(vertex.replace("streamRawPredict", "rawPredict")));
        ObjectNode body = (ObjectNode) Json.readTree("{\"anthropic_version\":\"vertex-2023-10-16\",\"stream\":true}");
        assertEquals(Json.readTree("{\"model\":\"claude-sonnet-4-5@20250929\",\"stream\":true,"
                + "\"anthropic_version\":\"vertex-2023-10-16\"}"), ApiShape.request(vertex, body));
        assertEquals("anthropic.claude-sonnet-4-5-20250929-v1:0",
                ApiShape.request(bedrock, body).get("model").asString());
    }

    @Test
    void bedrockErrorsAreItsExceptionsNamedByTheirHeader() {
        assertEquals(Json.readTree("{\"__type\":\"ThrottlingException\",\"message\":\"slow\"}"),
                ApiShape.BEDROCK.errorBody(429, "rate_limit_exceeded", "slow", null));
        assertEquals(java.util.Map.of("Retry-After", "2", "x-amzn-ErrorType", "ThrottlingException"),
                ApiShape.BEDROCK.errorHeaders(429, java.util.Map.of("Retry-After", "2")));
        assertEquals(java.util.Map.of(), ApiShape.MESSAGES.errorHeaders(429, java.util.Map.of()));
        assertEquals("InternalServerException", ApiShape.bedrockType(500));
        assertEquals("ServiceUnavailableException", ApiShape.bedrockType(503));
        assertEquals("ModelTimeoutException", ApiShape.bedrockType(408));
        assertEquals("ModelTimeoutException", ApiShape.bedrockType(504));
        assertEquals("ResourceNotFoundException", ApiShape.bedrockType(404));
    }

    @Test
    void bedrockConverseStreamIsServedAtItsPathWithTheModelIdAndStreamingFoldedIn() {
        assertEquals(ApiShape.BEDROCK, ApiShape.forPath("/model/amazon.nova-lite-v1%3A0/converse-stream"));
        ObjectNode body = (ObjectNode) Json.readTree("{\"messages\":[]}");
        ObjectNode keyed = ApiShape.request("/model/amazon.nova-lite-v1%3A0/converse-stream", body);
        assertEquals(Json.readTree("{\"modelId\":\"amazon.nova-lite-v1:0\",\"stream\":true,\"messages\":[]}"), keyed);
        assertTrue(ApiShape.streams(keyed));
        assertEquals("model/amazon.nova-lite-v1%3A0/converse-stream", ApiShape.bedrockPath(keyed));
        assertEquals(body, ApiShape.bedrockBody(keyed), "Bedrock itself is sent the body as the SDK built it");
        assertEquals(Json.readTree("{\"modelId\":\"amazon.nova-lite-v1:0\",\"messages\":[]}"),
                ApiShape.withoutStreaming(keyed), "the same request asked whole: a Converse cassette answers it");
        assertEquals(keyed, ApiShape.request("/model/amazon.nova-lite-v1%3A0/converse-stream", keyed),
                "keying a keyed request changes nothing");
    }
}
