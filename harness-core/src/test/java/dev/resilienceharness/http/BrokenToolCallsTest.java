package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.transport.ToolCallSchema;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class BrokenToolCallsTest {

    @Test
    void cutsEveryToolCallsArguments() {
        ObjectNode ok = chatToolCall("edit", "{\"path\": \"a\"}");
        JsonNode broken = BrokenToolCalls.of(ApiShape.CHAT_COMPLETIONS, ok, null);
        assertEquals("{\"path" + BrokenToolCalls.BROKEN_SUFFIX,
                broken.at("/choices/0/message/tool_calls/0/function/arguments").asString());
        assertEquals("{\"path\": \"a\"}", ok.at("/choices/0/message/tool_calls/0/function/arguments").asString(),
                "the recorded body is not changed");
        assertNotNull(new ToolCallSchema().problem(null, broken));
    }

    @Test
    void addsABrokenCallToTheFirstDeclaredToolWhenThereIsNone() {
        JsonNode request = Json.readTree("{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"edit\"}}]}");
        JsonNode broken = BrokenToolCalls.of(ApiShape.CHAT_COMPLETIONS,
                Json.readTree("{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"text\"},"
                        + "\"finish_reason\":\"stop\"}]}"), request);
        assertEquals("edit", broken.at("/choices/0/message/tool_calls/0/function/name").asString());
        assertEquals("tool_calls", broken.at("/choices/0/finish_reason").asString());
        assertNotNull(new ToolCallSchema().problem(request, broken));
    }

    @Test
    void leavesABodyWithoutChoicesAlone() {
        JsonNode body = Json.readTree("{\"done\":\"plan\"}");
        for (ApiShape shape : ApiShape.values()) {
            assertSame(body, BrokenToolCalls.of(shape, body, null), shape.toString());
        }
    }

    @Test
    void geminiFunctionCallArgsBecomeCutOffJson() {
        JsonNode request = Json.readTree("{\"tools\":[{\"functionDeclarations\":[{\"name\":\"edit\","
                + "\"parameters\":{\"type\":\"OBJECT\"}}]}]}");
        JsonNode withCall = Json.readTree("{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":["
                + "{\"functionCall\":{\"name\":\"edit\",\"args\":{\"path\":\"a\"}}}]},\"finishReason\":\"STOP\"}]}");
        JsonNode broken = BrokenToolCalls.of(ApiShape.GEMINI, withCall, request);
        assertEquals("{\"path" + BrokenToolCalls.BROKEN_SUFFIX,
                broken.at("/candidates/0/content/parts/0/functionCall/args").asString());
        assertEquals(Json.readTree("{\"path\":\"a\"}"), withCall.at("/candidates/0/content/parts/0/functionCall/args"),
                "the recorded body is not changed");
        assertNotNull(new ToolCallSchema().problem(request, broken));

        JsonNode text = Json.readTree("{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":["
                + "{\"text\":\"done\"}]},\"finishReason\":\"STOP\"}]}");
        JsonNode added = BrokenToolCalls.of(ApiShape.GEMINI, text, request);
        assertEquals("edit", added.at("/candidates/0/content/parts/1/functionCall/name").asString());
        assertEquals(BrokenToolCalls.BROKEN_SUFFIX, added.at("/candidates/0/content/parts/1/functionCall/args")
                .asString());
        assertNotNull(new ToolCallSchema().problem(request, added));
    }

    static ObjectNode chatToolCall(String tool, String arguments) {
        ObjectNode body = (ObjectNode) Json.readTree("{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{}}]},"
                + "\"finish_reason\":\"tool_calls\"}]}");
        ((ObjectNode) body.at("/choices/0/message/tool_calls/0/function")).put("name", tool).put("arguments", arguments);
        return body;
    }

    @Property(tries = 200)
    void aCutNeverParses(@ForAll String args) {
        String cut = BrokenToolCalls.cut(args);
        assertThrows(JacksonException.class, () -> Json.readTree(cut));
    }

    @Test
    void breaksResponsesFunctionCallArgumentsOrAddsACall() {
        JsonNode request = Json.readTree("{\"tools\":[{\"type\":\"function\",\"name\":\"edit\","
                + "\"parameters\":{\"type\":\"object\",\"required\":[\"path\"]}}]}");
        JsonNode withCall = Json.readTree("{\"object\":\"response\",\"output\":[{\"type\":\"function_call\","
                + "\"call_id\":\"c\",\"name\":\"edit\",\"arguments\":\"{\\\"path\\\": \\\"a\\\"}\"}]}");
        JsonNode broken = BrokenToolCalls.of(ApiShape.RESPONSES, withCall, request);
        assertEquals("{\"path" + BrokenToolCalls.BROKEN_SUFFIX, broken.at("/output/0/arguments").asString());
        assertNotNull(new ToolCallSchema().problem(request, broken));

        JsonNode text = Json.readTree("{\"object\":\"response\",\"output\":[{\"type\":\"message\","
                + "\"content\":[{\"type\":\"output_text\",\"text\":\"hi\"}]}]}");
        JsonNode added = BrokenToolCalls.of(ApiShape.RESPONSES, text, request);
        assertEquals("function_call", added.at("/output/1/type").asString());
        assertEquals("edit", added.at("/output/1/name").asString());
        assertNotNull(new ToolCallSchema().problem(request, added));
    }

    @Test
    void breaksMessagesToolUseInputOrAddsABlock() {
        JsonNode request = Json.readTree("{\"tools\":[{\"name\":\"edit\",\"input_schema\":{\"type\":\"object\"}}]}");
        JsonNode withUse = Json.readTree("{\"type\":\"message\",\"content\":[{\"type\":\"tool_use\","
                + "\"id\":\"toolu_1\",\"name\":\"edit\",\"input\":{\"path\":\"a\"}}],\"stop_reason\":\"tool_use\"}");
        JsonNode broken = BrokenToolCalls.of(ApiShape.MESSAGES, withUse, request);
        assertEquals("{\"path" + BrokenToolCalls.BROKEN_SUFFIX, broken.at("/content/0/input").asString());
        assertThrows(JacksonException.class, () -> Json.readTree(broken.at("/content/0/input").asString()));
        assertNotNull(new ToolCallSchema().problem(request, broken));

        JsonNode text = Json.readTree("{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],"
                + "\"stop_reason\":\"end_turn\"}");
        JsonNode added = BrokenToolCalls.of(ApiShape.MESSAGES, text, request);
        assertEquals("tool_use", added.at("/content/1/type").asString());
        assertEquals("edit", added.at("/content/1/name").asString());
        assertEquals("tool_use", added.get("stop_reason").asString());
        assertNotNull(new ToolCallSchema().problem(request, added));
    }
}
