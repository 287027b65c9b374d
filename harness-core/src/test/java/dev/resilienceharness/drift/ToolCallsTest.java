package dev.resilienceharness.drift;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolCallsTest {

    @Test
    void chatCompletionCallsAreFoundInEveryChoice() {
        var calls = ToolCalls.in(Json.readTree("""
                {"choices": [{"message": {"content": "x"}},
                             {"message": {"tool_calls": [{"function": {"name": "a"}}, {"function": {"name": "b"}}]}}]}"""));
        assertEquals(List.of(
                new ToolCalls.Call("choices[1].message.tool_calls", "choices[1].message.tool_calls[0]",
                        "choices[1].message.tool_calls[0].function.name", "a"),
                new ToolCalls.Call("choices[1].message.tool_calls", "choices[1].message.tool_calls[1]",
                        "choices[1].message.tool_calls[1].function.name", "b")), calls);
    }

    @Test
    void responsesAndMessagesCallsAreTheirTypedItems() {
        assertEquals(List.of(new ToolCalls.Call("output", "output[1]", "output[1].name", "f")),
                ToolCalls.in(Json.readTree("{\"output\": [{\"type\": \"message\"}, {\"type\": \"function_call\","
                        + " \"name\": \"f\"}]}")));
        assertEquals(List.of(new ToolCalls.Call("content", "content[0]", "content[0].name", "t")),
                ToolCalls.in(Json.readTree("{\"content\": [{\"type\": \"tool_use\", \"name\": \"t\"},"
                        + " {\"type\": \"text\"}]}")));
    }

    @Test
    void geminiCallsAreTheFunctionCallPartsOfEachCandidate() {
        assertEquals(List.of(new ToolCalls.Call("candidates[0].content.parts", "candidates[0].content.parts[1]",
                        "candidates[0].content.parts[1].functionCall.name", "edit")),
                ToolCalls.in(Json.readTree("{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"x\"},"
                        + " {\"functionCall\": {\"name\": \"edit\", \"args\": {}}}]}}]}")));
    }

    @Test
    void anAnswerWithoutCallsHasNone() {
        assertEquals(List.of(), ToolCalls.in(Json.readTree("{\"choices\": [{\"message\": {\"content\": \"x\"}}]}")));
        assertEquals(List.of(), ToolCalls.in(Json.readTree("\"text\"")));
    }

    @Test
    void bedrockCallsAreTheToolUseBlocksOfTheOutputMessage() {
        assertEquals(List.of(new ToolCalls.Call("output.message.content", "output.message.content[1]",
                        "output.message.content[1].toolUse.name", "edit")),
                ToolCalls.in(Json.readTree("{\"output\": {\"message\": {\"content\": [{\"text\": \"x\"},"
                        + " {\"toolUse\": {\"toolUseId\": \"t\", \"name\": \"edit\", \"input\": {}}}]}}}")));
    }
}
