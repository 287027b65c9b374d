package dev.resilienceharness.drift;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ChangeTest {

    @Test
    void aLineNamesThePathAndWhatChanged() {
        assertEquals("choices[0].message.tool_calls: removed (the cassette has an array)",
                new Change(ChangeKind.REMOVED, "choices[0].message.tool_calls", "array", null).line());
        assertEquals("choices[0].finish_reason: was 'tool_calls', is now nothing",
                new Change(ChangeKind.FINISH_REASON, "choices[0].finish_reason", "tool_calls", null).line());
        assertEquals("timing.total_ms: 900 ms live against 100 ms recorded, beyond the latency tolerance",
                new Change(ChangeKind.TOTAL_SLOWER, "timing.total_ms", "100", "900").line());
    }

    @Test
    void kindsHaveTheNamesDriftJsonUses() {
        assertEquals("tool_call_gone", ChangeKind.TOOL_CALL_GONE.jsonName());
        assertEquals("first_token_slower", ChangeKind.FIRST_TOKEN_SLOWER.jsonName());
    }
}
