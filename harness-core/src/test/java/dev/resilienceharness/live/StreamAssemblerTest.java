package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class StreamAssemblerTest {

    /** Feeds {@code lines}; returns the index of the line that carried the first token, or -1. */
    static int feed(StreamAssembler a, String... lines) throws StreamAssembler.BadChunk {
        int first = -1;
        for (int i = 0; i < lines.length; i++) {
            if (a.accept(lines[i]) && first < 0) {
                first = i;
            }
        }
        if (a.finish() && first < 0) {
            first = lines.length;
        }
        return first;
    }

    static String[] events(String... payloads) {
        List<String> lines = new ArrayList<>();
        for (String p : payloads) {
            lines.add("data: " + p);
            lines.add("");
        }
        return lines.toArray(String[]::new);
    }

    @Test
    void concatenatesContentDeltasAndKeepsTheLastFinishReasonAndUsage() throws Exception {
        StreamAssembler a = new StreamAssembler();
        int first = feed(a, events(
                "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\",\"system_fingerprint\":\"fp\","
                        + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}",
                "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello, \"},\"finish_reason\":null}]}",
                "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"world\"},\"finish_reason\":null}]}",
                "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}",
                "{\"id\":\"c\",\"choices\":[],\"usage\":{\"total_tokens\":9}}",
                "[DONE]"));
        assertEquals(3, first, "the empty role chunk is no token; the blank line after \"Hello, \" completes it");
        assertTrue(a.done());
        assertEquals(5, a.chunks());
        assertEquals(Json.readTree("{\"id\":\"c\",\"object\":\"chat.completion\",\"created\":7,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello, world\"},"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"total_tokens\":9},\"system_fingerprint\":\"fp\"}"),
                a.completion());
    }

    @Test
    void concatenatesToolCallArgumentsByIndex() throws Exception {
        StreamAssembler a = new StreamAssembler();
        int first = feed(a, events(
                "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                        + "{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"edit\",\"arguments\":\"\"}}]}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"run\",\"arguments\":\"{\\\"cmd\\\"\"}}]}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"path\\\":\"}}]}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\" \\\"a\\\"}\"}}]}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\": \\\"ls\\\"}\"}}]}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}",
                "[DONE]"));
        assertEquals(1, first, "a tool-call delta is the first token");
        ObjectNode c = a.completion();
        assertTrue(c.at("/choices/0/message/content").isNull());
        assertEquals("{\"path\": \"a\"}", c.at("/choices/0/message/tool_calls/0/function/arguments").asString());
        assertEquals("edit", c.at("/choices/0/message/tool_calls/0/function/name").asString());
        assertEquals("call_b", c.at("/choices/0/message/tool_calls/1/id").asString());
        assertEquals("{\"cmd\": \"ls\"}", c.at("/choices/0/message/tool_calls/1/function/arguments").asString());
        assertEquals("tool_calls", c.at("/choices/0/finish_reason").asString());
    }

    @Test
    void keepsChoicesApartAndIgnoresCommentsAndOtherFields() throws Exception {
        StreamAssembler a = new StreamAssembler();
        feed(a, ": keep-alive", "event: message", "id: 1", "retry: 10",
                "data:{\"choices\":[{\"index\":1,\"delta\":{\"content\":\"B\"}},{\"index\":0,\"delta\":{\"content\":\"A\"}}]}",
                "", "data: [DONE]", "", "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"after done\"}}]}", "");
        ObjectNode c = a.completion();
        assertEquals("A", c.at("/choices/0/message/content").asString());
        assertEquals(1, c.at("/choices/1/index").asInt());
        assertEquals("B", c.at("/choices/1/message/content").asString());
    }

    @Test
    void joinsAnEventSplitOverSeveralDataLines() throws Exception {
        StreamAssembler a = new StreamAssembler();
        feed(a, "data: {\"choices\":[{\"index\":0,", "data: \"delta\":{\"content\":\"x\"}}]}", "");
        assertEquals("x", a.completion().at("/choices/0/message/content").asString());
    }

    @Test
    void aStreamWithoutDoneIsCompleteOnlyWhenEveryChoiceFinished() throws Exception {
        StreamAssembler cut = new StreamAssembler();
        feed(cut, events("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":null}]}"));
        assertFalse(cut.complete());
        StreamAssembler finished = new StreamAssembler();
        feed(finished, events("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}"));
        assertTrue(finished.complete());
        assertFalse(new StreamAssembler().complete(), "nothing at all is not complete");
    }

    @Test
    void aLastEventWithoutBlankLineStillCounts() throws Exception {
        StreamAssembler a = new StreamAssembler();
        a.accept("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}");
        assertTrue(a.finish(), "the first token arrives with the final event");
    }

    @Test
    void brokenOrErrorChunksAreRefused() {
        StreamAssembler.BadChunk notJson = assertThrows(StreamAssembler.BadChunk.class,
                () -> feed(new StreamAssembler(), events("{\"choices\": [")));
        assertTrue(notJson.getMessage().startsWith("a stream chunk is not JSON"), notJson.getMessage());
        assertThrows(StreamAssembler.BadChunk.class, () -> feed(new StreamAssembler(), events("[1, 2]")));
        StreamAssembler.BadChunk error = assertThrows(StreamAssembler.BadChunk.class,
                () -> feed(new StreamAssembler(), events("{\"error\":{\"message\":\"overloaded\"}}")));
        assertTrue(error.getMessage().contains("overloaded"));
    }
}
