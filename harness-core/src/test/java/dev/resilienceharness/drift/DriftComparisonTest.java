package dev.resilienceharness.drift;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.config.DriftSettings;
import dev.resilienceharness.json.Json;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class DriftComparisonTest {

    static final String REQUEST = """
            {"model": "m", "messages": [{"role": "user", "content": "find order 7"}],
             "tools": [{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object",
               "properties": {"order": {"type": "integer"}}, "required": ["order"]}}}]}""";

    static final String TOOL_ANSWER = """
            {"id": "chatcmpl-1", "created": 1, "object": "chat.completion", "model": "m",
             "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
               "tool_calls": [{"id": "call_1", "type": "function",
                 "function": {"name": "lookup", "arguments": "{\\"order\\": 7}"}}]}}],
             "usage": {"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30}}""";

    private final DriftComparison comparison = new DriftComparison(DriftSettings.DEFAULTS,
            List.of("response.id", "response.created"));

    private static ObjectNode json(String text) {
        return (ObjectNode) Json.readTree(text);
    }

    private List<String> lines(JsonNode live) {
        return lines(live, null, null);
    }

    private List<String> lines(JsonNode live, Timing recorded, Timing now) {
        return comparison.compare(json(REQUEST), json(TOOL_ANSWER), recorded, live, now).stream()
                .map(Change::line).toList();
    }

    @Test
    void anUnchangedAnswerHasNoDrift() {
        assertEquals(List.of(), lines(json(TOOL_ANSWER)));
    }

    @Test
    void freeTextVolatilePathsAndOtherValuesAreIgnored() {
        ObjectNode live = json(TOOL_ANSWER.replace("chatcmpl-1", "chatcmpl-99").replace("\"created\": 1",
                "\"created\": \"later\"").replace("\"model\": \"m\"", "\"model\": \"m-2024\"")
                .replace("{\\\"order\\\": 7}", "{\\\"order\\\": 8}").replace("\"prompt_tokens\": 20",
                "\"prompt_tokens\": 25"));
        assertEquals(List.of(), lines(live));
    }

    @Test
    void aNewKeyIsNamedByItsPath() {
        ObjectNode live = json(TOOL_ANSWER);
        ((ObjectNode) live.get("choices").get(0).get("message")).put("refusal", "no");
        assertEquals(List.of("choices[0].message.refusal: added (a string in the live answer)"), lines(live));
    }

    @Test
    void aRemovedKeyIsNamedByItsPath() {
        ObjectNode live = json(TOOL_ANSWER);
        live.remove("usage");
        assertEquals(List.of("usage: removed (the cassette has an object)"), lines(live));
    }

    @Test
    void aTypeChangeIsNamedByItsPath() {
        ObjectNode live = json(TOOL_ANSWER);
        ((ObjectNode) live.get("usage")).put("total_tokens", "30");
        assertEquals(List.of("usage.total_tokens: was a number, is now a string"), lines(live));
    }

    @Test
    void aToolCallThatIsGoneIsNamedByTheMissingPath() {
        ObjectNode live = json(TOOL_ANSWER);
        ObjectNode message = (ObjectNode) live.get("choices").get(0).get("message");
        message.remove("tool_calls");
        message.put("content", "Order 7 shipped.");
        ((ObjectNode) live.get("choices").get(0)).put("finish_reason", "stop");
        assertEquals(List.of("choices[0].finish_reason: was 'tool_calls', is now 'stop'",
                "choices[0].message.tool_calls: the tool call is gone (the cassette calls 'lookup')",
                "choices[0].message.content: was null, is now a string"), lines(live));
    }

    @Test
    void aToolCallThatAppearsIsNamed() {
        ObjectNode live = json(TOOL_ANSWER);
        JsonNode recorded = live.deepCopy();
        ((ObjectNode) recorded.get("choices").get(0).get("message")).remove("tool_calls");
        List<String> got = comparison.compare(json(REQUEST), recorded, null, live, null).stream().map(Change::line)
                .toList();
        assertEquals(List.of("choices[0].message.tool_calls: a tool call appeared ('lookup'; the cassette calls"
                + " none)"), got);
    }

    @Test
    void anotherToolIsNamedByTheNamePath() {
        ObjectNode live = json(TOOL_ANSWER.replace("\"name\": \"lookup\"", "\"name\": \"search\""));
        assertEquals(List.of("choices[0].message.tool_calls[0].function.name: calls 'search' instead of 'lookup'",
                "choices[0].message.tool_calls[0].function: the live arguments break the request's schema:"
                        + " choices[0].message.tool_calls[0].function calls 'search', a tool the request does not"
                        + " declare"), lines(live));
    }

    @Test
    void argumentsThatBreakTheSchemaAreNamedByTheArgumentsPath() {
        ObjectNode live = json(TOOL_ANSWER.replace("{\\\"order\\\": 7}", "{\\\"order\\\": \\\"seven\\\"}"));
        List<String> got = lines(live);
        assertEquals(1, got.size(), got.toString());
        assertEquals(true, got.get(0).startsWith("choices[0].message.tool_calls[0].function.arguments: the live"
                + " arguments break the request's schema: choices[0].message.tool_calls[0].function.arguments break"
                + " the schema of tool 'lookup'"), got.get(0));
    }

    @Test
    void usageGrowthCountsOnlyBeyondTheTolerance() {
        ObjectNode within = json(TOOL_ANSWER.replace("\"completion_tokens\": 10", "\"completion_tokens\": 15"));
        assertEquals(List.of(), lines(within));
        ObjectNode beyond = json(TOOL_ANSWER.replace("\"completion_tokens\": 10", "\"completion_tokens\": 16"));
        assertEquals(List.of("usage.completion_tokens: grew from 10 to 16, beyond the usage tolerance"),
                lines(beyond));
    }

    @Test
    void slowerCountsOnlyBeyondTwiceTheRecordedAndTheMargin() {
        Timing recorded = new Timing(400L, 1000L);
        assertEquals(List.of(), lines(json(TOOL_ANSWER), recorded, new Timing(800L, 1900L)));
        assertEquals(List.of("timing.first_token_ms: 801 ms live against 400 ms recorded, beyond the latency"
                        + " tolerance", "timing.total_ms: 2500 ms live against 1000 ms recorded, beyond the latency"
                        + " tolerance"), lines(json(TOOL_ANSWER), recorded, new Timing(801L, 2500L)));
        // A few milliseconds recorded: doubling them is jitter, not drift.
        assertEquals(List.of(), lines(json(TOOL_ANSWER), new Timing(2L, 3L), new Timing(9L, 60L)));
    }

    @Test
    void theToleranceAndIgnoredPathsComeFromTheDriftBlock() {
        DriftComparison strict = new DriftComparison(new DriftSettings(List.of("response.usage"), 1.2,
                Duration.ZERO, 1.0, null), List.of());
        ObjectNode live = json(TOOL_ANSWER);
        live.remove("usage");
        List<String> got = strict.compare(json(REQUEST), json(TOOL_ANSWER), new Timing(100L, 100L), live,
                new Timing(121L, 120L)).stream().map(Change::line).toList();
        assertEquals(List.of("timing.first_token_ms: 121 ms live against 100 ms recorded, beyond the latency"
                + " tolerance"), got);
    }

    @Test
    void messagesAnswersAreComparedByStopReasonAndToolUse() {
        ObjectNode request = json("""
                {"model": "c", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}],
                 "tools": [{"name": "lookup", "input_schema": {"type": "object"}}]}""");
        ObjectNode recorded = json("""
                {"type": "message", "role": "assistant", "stop_reason": "tool_use",
                 "content": [{"type": "tool_use", "id": "t1", "name": "lookup", "input": {}}]}""");
        ObjectNode live = json("""
                {"type": "message", "role": "assistant", "stop_reason": "end_turn",
                 "content": [{"type": "text", "text": "hello"}]}""");
        List<String> got = comparison.compare(request, recorded, null, live, null).stream().map(Change::line)
                .toList();
        assertEquals(List.of("stop_reason: was 'tool_use', is now 'end_turn'",
                "content: the tool call is gone (the cassette calls 'lookup')",
                "content[0].id: removed (the cassette has a string)",
                "content[0].name: removed (the cassette has a string)",
                "content[0].input: removed (the cassette has an object)",
                "content[0].text: added (a string in the live answer)"), got);
    }
}
