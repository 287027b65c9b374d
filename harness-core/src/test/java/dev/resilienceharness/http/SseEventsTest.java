package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.cassette.StreamEvent;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseEventsTest {

    private static List<StreamEvent> read(String wire, long... clock) throws IOException {
        int[] i = {0};
        return SseEvents.read(new ByteArrayInputStream(wire.getBytes(StandardCharsets.UTF_8)),
                () -> clock[Math.min(i[0]++, clock.length - 1)]);
    }

    @Test
    void eachEventIsStampedWhenItsBlankLineArrives() throws IOException {
        assertEquals(List.of(new StreamEvent(10, "{\"a\":1}"), new StreamEvent(30, "message_stop", "{}"),
                        new StreamEvent(40, "[DONE]")),
                read(": hello\n\ndata: {\"a\":1}\n\nid: 7\nevent: message_stop\ndata: {}\n\ndata:[DONE]", 10, 30, 40));
    }

    @Test
    void dataLinesJoinAndTheClockNeverStepsBack() throws IOException {
        assertEquals(List.of(new StreamEvent(9, "one\ntwo"), new StreamEvent(9, "x")),
                read("data: one\ndata: two\n\ndata: x\n\n", 9, 3));
    }

    @Test
    void anEndlessEventIsRefused() {
        String huge = "data: " + "x".repeat(SseEvents.MAX_EVENT_CHARS) + "\ndata: y\n\n";
        assertThrows(IOException.class, () -> read(huge, 0));
    }
}
