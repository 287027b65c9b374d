package dev.resilienceharness.live;

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
        ObjectNode ok = ProviderStub.toolCall("edit", "{\"path\": \"a\"}");
        JsonNode broken = BrokenToolCalls.of(ok, null);
        assertEquals("{\"path" + BrokenToolCalls.BROKEN_SUFFIX,
                broken.at("/choices/0/message/tool_calls/0/function/arguments").asString());
        assertEquals("{\"path\": \"a\"}", ok.at("/choices/0/message/tool_calls/0/function/arguments").asString(),
                "the recorded body is not changed");
        assertNotNull(new ToolCallSchema().problem(null, broken));
    }

    @Test
    void addsABrokenCallToTheFirstDeclaredToolWhenThereIsNone() {
        JsonNode request = Json.readTree("{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"edit\"}}]}");
        JsonNode broken = BrokenToolCalls.of(ProviderStub.completion("text"), request);
        assertEquals("edit", broken.at("/choices/0/message/tool_calls/0/function/name").asString());
        assertEquals("tool_calls", broken.at("/choices/0/finish_reason").asString());
        assertNotNull(new ToolCallSchema().problem(request, broken));
    }

    @Test
    void leavesABodyWithoutChoicesAlone() {
        JsonNode body = Json.readTree("{\"done\":\"plan\"}");
        assertSame(body, BrokenToolCalls.of(body, null));
    }

    @Property(tries = 200)
    void aCutNeverParses(@ForAll String args) {
        String cut = BrokenToolCalls.cut(args);
        assertThrows(JacksonException.class, () -> Json.readTree(cut));
    }
}
