package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.json.Json;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class StreamRecordingTest {

    static List<String> chunks(String... pieces) {
        List<String> out = new ArrayList<>();
        String head = "{\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":";
        out.add(head + "{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}");
        for (String p : pieces) {
            out.add(head + "{\"content\":\"" + p + "\"},\"finish_reason\":null}]}");
        }
        out.add(head + "{},\"finish_reason\":\"stop\"}]}");
        out.add("[DONE]");
        return out;
    }

    @Test
    void recordedEventsAddUpToTheAnswerAgain() throws Exception {
        List<StreamEvent> events = new ArrayList<>();
        long at = 100;
        for (String data : chunks("a", "b")) {
            events.add(new StreamEvent(at += 10, data));
        }
        StreamRecording.Captured again = StreamRecording.assemble(events);
        assertEquals("ab", again.completion().get("choices").get(0).get("message").get("content").asString());
        assertEquals(120L, again.firstTokenMs());
        assertEquals(150L, again.totalMs());
        assertEquals(events, again.stream().events());
    }

    @Test
    void readingStampsEachEventAndABrokenStreamIsRefused() throws Exception {
        String wire = "event: ping\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},"
                + "\"finish_reason\":\"stop\"}]}\n\n: keep-alive\n\ndata: [DONE]\n\n";
        long[] now = {0};
        StreamRecording.Captured c = StreamRecording.read(new ByteArrayInputStream(
                wire.getBytes(StandardCharsets.UTF_8)), () -> now[0] += 7);
        assertEquals(2, c.stream().events().size());
        assertEquals("ping", c.stream().events().get(0).event());
        assertEquals("[DONE]", c.stream().events().get(1).data());
        StreamRecording.Broken broken = assertThrows(StreamRecording.Broken.class, () -> StreamRecording.read(
                new ByteArrayInputStream("data: {\"choices\": [\n\n".getBytes(StandardCharsets.UTF_8)), () -> 0));
        assertTrue(broken.getMessage().contains("not JSON"), broken.getMessage());
        ObjectNode unfinished = (ObjectNode) Json.readTree("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}");
        assertThrows(StreamRecording.Broken.class, () -> StreamRecording.read(new ByteArrayInputStream(
                ("data: " + Json.compact(unfinished) + "\n\n").getBytes(StandardCharsets.UTF_8)), () -> 0));
    }

    @Test
    void aResponsesStreamAddsUpToTheResponseItEndsWith() throws Exception {
        List<StreamEvent> events = new ArrayList<>();
        List<StreamEvent> whole = ResponseStreams.of(Json.readTree(ResponseStreamsTest.RESPONSE), 0);
        for (int i = 0; i < whole.size(); i++) {
            events.add(whole.get(i).later(100 + 10L * i));
        }
        StreamRecording.Captured again = StreamRecording.assemble(events);
        assertEquals(Json.readTree(ResponseStreamsTest.RESPONSE), again.completion(), "response.completed's response");
        assertEquals(140L, again.firstTokenMs(), "the first output_text.delta, the fifth event");
        assertEquals(events, again.stream().events(), "every event with its name");

        // Read from the wire, as recording reads a provider's stream: the names come with the events.
        StringBuilder wire = new StringBuilder();
        whole.forEach(e -> wire.append(e.wire()));
        long[] now = {0};
        StreamRecording.Captured read = StreamRecording.read(new ByteArrayInputStream(
                wire.toString().getBytes(StandardCharsets.UTF_8)), () -> now[0] += 5);
        assertEquals(whole.stream().map(StreamEvent::event).toList(),
                read.stream().events().stream().map(StreamEvent::event).toList());
        assertEquals(Json.readTree(ResponseStreamsTest.RESPONSE), read.completion());
    }

    @Test
    void aResponsesStreamThatReportsAnErrorOrEndsEarlyIsRefused() {
        List<StreamEvent> whole = ResponseStreams.of(Json.readTree(ResponseStreamsTest.RESPONSE), 0);
        List<StreamEvent> withError = new ArrayList<>(whole.subList(0, 5));
        withError.add(StreamReplay.errorEvent(ApiShape.RESPONSES, 0, 5));
        StreamRecording.Broken error = assertThrows(StreamRecording.Broken.class,
                () -> StreamRecording.assemble(withError));
        assertTrue(error.getMessage().contains("the stream reported an error: server_error"), error.getMessage());

        List<StreamEvent> failed = new ArrayList<>(whole.subList(0, 2));
        failed.add(new StreamEvent(0, "response.failed", "{\"type\":\"response.failed\",\"response\":{\"status\":"
                + "\"failed\",\"error\":{\"code\":\"server_error\",\"message\":\"boom\"}},\"sequence_number\":2}"));
        StreamRecording.Broken failure = assertThrows(StreamRecording.Broken.class,
                () -> StreamRecording.assemble(failed));
        assertTrue(failure.getMessage().contains("boom"), failure.getMessage());

        StreamRecording.Broken early = assertThrows(StreamRecording.Broken.class,
                () -> StreamRecording.assemble(whole.subList(0, whole.size() - 1)));
        assertEquals("the event stream ended before response.completed", early.getMessage(),
                "a Responses stream's own end marker");
    }

    @Test
    void aStreamThatEndsEarlyNamesItsOwnApisEndMarker() throws Exception {
        List<StreamEvent> messages = MessageStreams.of(Json.readTree("{\"id\":\"msg_1\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"model\":\"claude-x\",\"content\":[{\"type\":\"text\",\"text\":"
                + "\"Patch it.\"}],\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":3,"
                + "\"output_tokens\":2}}"), 0);
        assertEquals("the event stream ended before message_stop", early(messages.subList(0, 3), null));
        List<StreamEvent> gemini = GeminiStreams.of(GeminiStreamsTest.ANSWER, 0);
        assertEquals("the event stream ended before a chunk giving every candidate its finishReason",
                early(gemini.subList(0, 2), null));
        List<StreamEvent> chat = List.of(new StreamEvent(0, "{\"id\":\"c\",\"object\":\"chat.completion.chunk\","
                + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Pa\"},\"finish_reason\":null}]}"));
        assertEquals("the event stream ended before [DONE] (or a finish_reason on every choice)", early(chat, null));
        assertEquals("the event stream ended before message_stop", early(messages.subList(0, 3), ApiShape.GEMINI),
                "the events say which API they are");
        assertEquals("the event stream ended before a chunk giving every candidate its finishReason",
                early(List.of(), ApiShape.GEMINI), "no event arrived: the op's API");
        assertEquals(StreamRecording.ENDED_EARLY, early(List.of(), null), "nothing says which API");
        StreamRecording.Broken read = assertThrows(StreamRecording.Broken.class, () -> StreamRecording.read(
                new ByteArrayInputStream(new byte[0]), () -> 0, ApiShape.MESSAGES));
        assertEquals("the event stream ended before message_stop", read.getMessage());
        assertTrue(read.endedEarly());
    }

    private static String early(List<StreamEvent> events, ApiShape shape) {
        StreamRecording.Broken broken = assertThrows(StreamRecording.Broken.class,
                () -> StreamRecording.assemble(events, shape));
        assertTrue(broken.endedEarly(), broken.getMessage());
        return broken.getMessage();
    }
}
