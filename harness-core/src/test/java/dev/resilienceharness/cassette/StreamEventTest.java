package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StreamEventTest {

    @Test
    void theWireFormIsWhatAProviderSends() {
        assertEquals("data: {\"a\":1}\n\n", new StreamEvent(5, "{\"a\":1}").wire());
        assertEquals("event: content_block_delta\ndata: {}\n\n", new StreamEvent(5, "content_block_delta", "{}").wire());
        assertEquals("data: one\ndata: two\n\n", new StreamEvent(5, "one\ntwo").wire(), "a line per data line");
    }

    @Test
    void laterAndWithDataKeepTheRest() {
        StreamEvent e = new StreamEvent(5, "ping", "x");
        assertEquals(new StreamEvent(12, "ping", "x"), e.later(7));
        assertEquals(new StreamEvent(5, "ping", "y"), e.withData("y"));
    }
}
