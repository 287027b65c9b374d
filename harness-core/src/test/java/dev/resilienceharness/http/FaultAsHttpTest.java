package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.transport.ToolCallSchema;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Each fault as the HTTP a provider would send, computed without any server. */
class FaultAsHttpTest {

    static final JsonNode REQUEST = Json.readTree("{\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"function\":"
            + "{\"name\":\"edit\",\"parameters\":{\"type\":\"object\",\"required\":[\"path\"]}}}]}");
    static final JsonNode RECORDED = Json.readTree("{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"done\"},\"finish_reason\":\"stop\"}]}");
    static final Duration TEN = FaultAsHttp.DEFAULT_TIMEOUT;

    @Test
    void noneIsTheRecorded200AsLateAsRecorded() {
        FaultAnswer a = FaultAsHttp.answer(NoFault.INSTANCE, ApiShape.CHAT_COMPLETIONS, REQUEST, RECORDED, 40, TEN);
        assertEquals(FaultAnswer.Outcome.ANSWER, a.outcome());
        assertEquals(200, a.status());
        assertSame(RECORDED, a.body());
        assertEquals(Duration.ofMillis(40), a.delay());
        assertTrue(a.headers().isEmpty());
    }

    @Test
    void quotaWithRetryAfterIs429WithBothHeadersInEachShape() {
        FaultAnswer openai = FaultAsHttp.answer(new QuotaFault("2"), ApiShape.CHAT_COMPLETIONS, REQUEST, null, 0, TEN);
        assertEquals(429, openai.status());
        assertEquals(Map.of("Retry-After", "2", "retry-after-ms", "2000"), openai.headers());
        assertEquals("rate_limit_exceeded", openai.body().at("/error/type").asString());
        assertEquals(Duration.ZERO, openai.delay());

        FaultAnswer anthropic = FaultAsHttp.answer(new QuotaFault("1.5"), ApiShape.MESSAGES, REQUEST, null, 0, TEN);
        assertEquals(Map.of("Retry-After", "1.5", "retry-after-ms", "1500"), anthropic.headers());
        assertEquals("error", anthropic.body().get("type").asString());
        assertEquals("rate_limit_error", anthropic.body().at("/error/type").asString());
        assertTrue(anthropic.body().at("/error/message").asString().contains("retry after 1.5"));

        FaultAnswer responses = FaultAsHttp.answer(new QuotaFault(null), ApiShape.RESPONSES, REQUEST, null, 0, TEN);
        assertTrue(responses.headers().isEmpty(), "a bare quota has no Retry-After");
        assertEquals("rate_limit_exceeded", responses.body().at("/error/code").asString());
    }

    @Test
    void geminiFaultsAreGooglesErrors() {
        FaultAnswer quota = FaultAsHttp.answer(new QuotaFault("3"), ApiShape.GEMINI, REQUEST, null, 0, TEN);
        assertEquals(429, quota.status());
        assertEquals(429, quota.body().at("/error/code").asInt());
        assertEquals("RESOURCE_EXHAUSTED", quota.body().at("/error/status").asString());
        assertTrue(quota.body().at("/error/message").asString().contains("retry after 3"));
        FaultAnswer server = FaultAsHttp.answer(new ServerErrorFault(503), ApiShape.GEMINI, REQUEST, null, 0, TEN);
        assertEquals("UNAVAILABLE", server.body().at("/error/status").asString());
        JsonNode answer = Json.readTree("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"x\"}]}}]}");
        assertEquals(answer, FaultAsHttp.answerable(ApiShape.GEMINI, answer, "f00d"), "no identifier is needed");
    }

    @Test
    void anHttpDateRetryAfterHasNoMillisecondHeader() {
        String date = "Wed, 21 Oct 2026 07:28:00 GMT";
        assertEquals(Map.of("Retry-After", date), FaultAsHttp.quotaHeaders(date));
    }

    @Test
    void serverErrorIsItsStatus() {
        FaultAnswer a = FaultAsHttp.answer(new ServerErrorFault(502), ApiShape.CHAT_COMPLETIONS, REQUEST, null, 0,
                TEN);
        assertEquals(502, a.status());
        assertEquals("server_error", a.body().at("/error/type").asString());
        FaultAnswer overloaded = FaultAsHttp.answer(new ServerErrorFault(529), ApiShape.MESSAGES, REQUEST, null, 0,
                TEN);
        assertEquals("overloaded_error", overloaded.body().at("/error/type").asString());
    }

    @Test
    void timeoutIsSilenceForTheTimeoutGivenThenA504() {
        FaultAnswer a = FaultAsHttp.answer(TimeoutFault.INSTANCE, ApiShape.RESPONSES, REQUEST, null, 0,
                Duration.ofSeconds(3));
        assertEquals(FaultAnswer.Outcome.TIMEOUT, a.outcome());
        assertEquals(504, a.status());
        assertEquals(Duration.ofSeconds(3), a.delay());
        assertEquals("timeout", a.body().at("/error/type").asString());
    }

    @Test
    void crashIsAClosedConnection() {
        FaultAnswer a = FaultAsHttp.answer(CrashFault.INSTANCE, ApiShape.MESSAGES, REQUEST, null, 0, TEN);
        assertEquals(FaultAnswer.Outcome.CRASH, a.outcome());
        assertNull(a.body());
    }

    @Test
    void slowFirstTokenIsTheRecordedAnswerLate() {
        FaultAnswer a = FaultAsHttp.answer(new SlowFirstTokenFault(3500), ApiShape.CHAT_COMPLETIONS, REQUEST, RECORDED,
                40, TEN);
        assertEquals(200, a.status());
        assertSame(RECORDED, a.body());
        assertEquals(Duration.ofMillis(3500), a.delay());
        assertEquals(Duration.ofMillis(35), a.scaled(0.01).delay(), "the time factor scales the delay");
    }

    @Test
    void badToolCallIsA200WhoseToolCallBreaksItsSchema() {
        FaultAnswer a = FaultAsHttp.answer(BadToolCallFault.INSTANCE, ApiShape.CHAT_COMPLETIONS, REQUEST, RECORDED, 0,
                TEN);
        assertEquals(200, a.status());
        assertEquals("edit", a.body().at("/choices/0/message/tool_calls/0/function/name").asString());
        assertTrue(new ToolCallSchema().problem(REQUEST, a.body()) != null);
    }

    @Test
    void faultsThatAnswerWithTheRecordingNeedIt() {
        assertTrue(FaultAsHttp.needsRecordedAnswer(NoFault.INSTANCE));
        assertTrue(FaultAsHttp.needsRecordedAnswer(BadToolCallFault.INSTANCE));
        assertTrue(FaultAsHttp.needsRecordedAnswer(new SlowFirstTokenFault(1)));
        assertFalse(FaultAsHttp.needsRecordedAnswer(new QuotaFault(null)));
        assertFalse(FaultAsHttp.needsRecordedAnswer(TimeoutFault.INSTANCE));
        assertFalse(FaultAsHttp.needsRecordedAnswer(CrashFault.INSTANCE));
        assertThrows(IllegalArgumentException.class, () -> FaultAsHttp.answer(NoFault.INSTANCE,
                ApiShape.CHAT_COMPLETIONS, REQUEST, null, 0, TEN));
    }

    static final JsonNode ON_BEDROCK = Json.readTree("{\"model\":\"anthropic.claude-sonnet-4-5-20250929-v1:0\","
            + "\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":64,\"messages\":[]}");
    static final JsonNode ON_VERTEX = Json.readTree("{\"model\":\"claude-sonnet-4-5@20250929\","
            + "\"anthropic_version\":\"vertex-2023-10-16\",\"max_tokens\":64,\"messages\":[]}");

    @Test
    void anthropicOnBedrockFaultsAreBedrocksOwnErrors() {
        FaultAnswer quota = FaultAsHttp.answer(new QuotaFault("2"), ApiShape.MESSAGES, ON_BEDROCK, null, 0, TEN);
        assertEquals(429, quota.status());
        assertEquals(Map.of("Retry-After", "2", "retry-after-ms", "2000", "x-amzn-ErrorType", "ThrottlingException"),
                quota.headers());
        assertEquals(Json.readTree("{\"message\":\"injected quota fault: rate limit reached; retry after 2\"}"),
                quota.body(), "no error.type: anthropic-java's type() is empty, as on Bedrock");

        FaultAnswer overloaded = FaultAsHttp.answer(new ServerErrorFault(503), ApiShape.MESSAGES, ON_BEDROCK, null, 0,
                TEN);
        assertEquals(Map.of("x-amzn-ErrorType", "ServiceUnavailableException"), overloaded.headers());
        assertEquals("injected server_error fault", overloaded.body().get("message").asString());
        assertFalse(overloaded.body().has("error"));

        FaultAnswer late = FaultAsHttp.answer(new TimeoutFault(), ApiShape.MESSAGES, ON_BEDROCK, null, 0, TEN);
        assertEquals(504, late.status());
        assertTrue(late.body().get("message").asString().startsWith("injected timeout fault"));
    }

    @Test
    void anthropicOnVertexFaultsAreGooglesErrors() {
        FaultAnswer quota = FaultAsHttp.answer(new QuotaFault(null), ApiShape.MESSAGES, ON_VERTEX, null, 0, TEN);
        assertEquals(429, quota.status());
        assertTrue(quota.headers().isEmpty());
        assertEquals(429, quota.body().at("/error/code").asInt());
        assertEquals("RESOURCE_EXHAUSTED", quota.body().at("/error/status").asString());
        assertEquals("injected quota fault: rate limit reached", quota.body().at("/error/message").asString());
        assertTrue(quota.body().at("/error/type").isMissingNode(), "Google's error has no Anthropic type");

        FaultAnswer overloaded = FaultAsHttp.answer(new ServerErrorFault(529), ApiShape.MESSAGES, ON_VERTEX, null, 0,
                TEN);
        assertEquals(529, overloaded.status());
        assertEquals("UNAVAILABLE", overloaded.body().at("/error/status").asString());
    }

    @Test
    void anthropicsOwnApiKeepsItsErrorBody() {
        FaultAnswer a = FaultAsHttp.answer(new ServerErrorFault(529), ApiShape.MESSAGES, REQUEST, null, 0, TEN);
        assertEquals("overloaded_error", a.body().at("/error/type").asString());
        assertTrue(a.headers().isEmpty());
    }

    @Test
    void bedrockFaultsAreItsExceptions() {
        FaultAnswer quota = FaultAsHttp.answer(new QuotaFault("3"), ApiShape.BEDROCK, REQUEST, null, 0, TEN);
        assertEquals(429, quota.status());
        assertEquals("ThrottlingException", quota.headers().get("x-amzn-ErrorType"));
        assertTrue(quota.body().path("message").asString().contains("retry after 3"));
        FaultAnswer server = FaultAsHttp.answer(new ServerErrorFault(503), ApiShape.BEDROCK, REQUEST, null, 0, TEN);
        assertEquals("ServiceUnavailableException", server.headers().get("x-amzn-ErrorType"));
        FaultAnswer internal = FaultAsHttp.answer(new ServerErrorFault(500), ApiShape.BEDROCK, REQUEST, null, 0, TEN);
        assertEquals("InternalServerException", internal.headers().get("x-amzn-ErrorType"));
        FaultAnswer timeout = FaultAsHttp.answer(dev.resilienceharness.fault.TimeoutFault.INSTANCE, ApiShape.BEDROCK,
                REQUEST, null, 0, TEN);
        assertEquals("ModelTimeoutException", timeout.body().path("__type").asString());
    }

    @Test
    void aBrokenBedrockToolCallBreaksItsSchema() {
        JsonNode request = Json.readTree("{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"fix a.py\"}]}],"
                + "\"toolConfig\":{\"tools\":[{\"toolSpec\":{\"name\":\"apply_patch\",\"inputSchema\":{\"json\":"
                + "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}}}}]}}");
        JsonNode recorded = Json.readTree("{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"ok\"},"
                + "{\"toolUse\":{\"toolUseId\":\"t1\",\"name\":\"apply_patch\",\"input\":{\"path\":\"a.py\"}}}]}},"
                + "\"stopReason\":\"tool_use\",\"usage\":{\"inputTokens\":3,\"outputTokens\":2,\"totalTokens\":5}}");
        FaultAnswer broken = FaultAsHttp.answer(BadToolCallFault.INSTANCE, ApiShape.BEDROCK, request, recorded, 0, TEN);
        assertTrue(broken.body().at("/output/message/content/1/toolUse/input").isString());
        assertEquals("output.message.content[1].toolUse.input is not a JSON object (it is a string that does not parse"
                + " as JSON)", new dev.resilienceharness.transport.ToolCallSchema().problem(request, broken.body()));
        JsonNode text = Json.readTree("{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"x\"}]}}}");
        JsonNode added = FaultAsHttp.answer(BadToolCallFault.INSTANCE, ApiShape.BEDROCK, request, text, 0, TEN).body();
        assertEquals("apply_patch", added.at("/output/message/content/1/toolUse/name").asString());
        assertEquals("tool_use", added.path("stopReason").asString());
    }
}
