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
}
