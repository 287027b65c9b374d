package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class EventStreamFramesTest {

    private static final String PAYLOAD = "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hi\"}}";

    /** The message written out byte by byte from AWS's description of the framing, not by the encoder. */
    private static byte[] byHand() {
        ByteArrayOutputStream headers = new ByteArrayOutputStream();
        for (String[] h : List.of(new String[] {":event-type", "contentBlockDelta"},
                new String[] {":content-type", "application/json"}, new String[] {":message-type", "event"})) {
            byte[] name = h[0].getBytes(StandardCharsets.US_ASCII);
            byte[] value = h[1].getBytes(StandardCharsets.US_ASCII);
            headers.write(name.length);
            headers.writeBytes(name);
            headers.write(7);
            headers.write(0);
            headers.write(value.length);
            headers.writeBytes(value);
        }
        byte[] payload = PAYLOAD.getBytes(StandardCharsets.UTF_8);
        int total = 4 + 4 + 4 + headers.size() + payload.length + 4;
        ByteBuffer b = ByteBuffer.allocate(total);
        b.putInt(total).putInt(headers.size());
        CRC32 prelude = new CRC32();
        prelude.update(b.array(), 0, 8);
        b.putInt((int) prelude.getValue());
        b.put(headers.toByteArray()).put(payload);
        CRC32 message = new CRC32();
        message.update(b.array(), 0, total - 4);
        b.putInt((int) message.getValue());
        return b.array();
    }

    private static Map<String, String> headers() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put(":event-type", "contentBlockDelta");
        h.put(":content-type", "application/json");
        h.put(":message-type", "event");
        return h;
    }

    @Test
    void theEncoderWritesTheBytesTheFramingDescribes() {
        assertArrayEquals(byHand(), EventStreamFrames.encode(headers(), PAYLOAD.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theDecoderReadsAHandBuiltMessageAndThenTheCleanEnd() throws Exception {
        ByteArrayInputStream in = new ByteArrayInputStream(byHand());
        EventStreamFrames.Frame f = EventStreamFrames.read(in);
        assertEquals(headers(), f.headers());
        assertEquals(PAYLOAD, f.text());
        assertNull(EventStreamFrames.read(in), "the stream ended between messages");
    }

    @Test
    void aWrongPreludeCrcIsRefused() {
        byte[] bytes = byHand();
        bytes[8] ^= 1;
        EventStreamFrames.BadFrame e = assertThrows(EventStreamFrames.BadFrame.class,
                () -> EventStreamFrames.readAll(bytes));
        assertEquals(true, e.getMessage().startsWith("an event-stream message's prelude CRC32 is 0x"), e.getMessage());
        assertEquals(true, e.getMessage().endsWith(" it carries: the stream is corrupt"), e.getMessage());
    }

    @Test
    void aChangedPayloadFailsTheMessageCrc() {
        byte[] bytes = byHand();
        bytes[bytes.length - 8] ^= 0x20;
        EventStreamFrames.BadFrame e = assertThrows(EventStreamFrames.BadFrame.class,
                () -> EventStreamFrames.readAll(bytes));
        assertEquals(true, e.getMessage().startsWith("an event-stream message's CRC32 is 0x"), e.getMessage());
    }

    @Test
    void aStreamEndingInsideAMessageIsRefusedWithHowMuchArrived() {
        byte[] bytes = byHand();
        byte[] cut = Arrays.copyOf(bytes, bytes.length - 5);
        EventStreamFrames.BadFrame e = assertThrows(EventStreamFrames.BadFrame.class,
                () -> EventStreamFrames.readAll(cut));
        assertEquals("the event stream ended inside a message: " + cut.length + " of its " + bytes.length
                + " bytes arrived", e.getMessage());
        EventStreamFrames.BadFrame prelude = assertThrows(EventStreamFrames.BadFrame.class,
                () -> EventStreamFrames.readAll(Arrays.copyOf(bytes, 7)));
        assertEquals("the event stream ended inside a message: 7 of its 12 bytes arrived", prelude.getMessage());
    }

    @Test
    void lengthsThatDoNotFitAreRefused() {
        ByteBuffer b = ByteBuffer.allocate(16);
        b.putInt(16).putInt(40);
        CRC32 crc = new CRC32();
        crc.update(b.array(), 0, 8);
        b.putInt((int) crc.getValue());
        EventStreamFrames.BadFrame e = assertThrows(EventStreamFrames.BadFrame.class,
                () -> EventStreamFrames.readAll(b.array()));
        assertEquals("an event-stream message says it is 16 bytes with 40 bytes of headers, which do not fit"
                + " (at most 16777216 and 131072)", e.getMessage());
    }

    @Test
    void headersOfOtherTypesAreReadPastAndOnlyStringsKept() throws Exception {
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        h.write(5);
        h.writeBytes(":flag".getBytes(StandardCharsets.US_ASCII));
        h.write(0); // true: no value
        h.write(4);
        h.writeBytes(":int".getBytes(StandardCharsets.US_ASCII));
        h.write(4);
        h.writeBytes(new byte[] {0, 0, 0, 42});
        h.write(3);
        h.writeBytes(":id".getBytes(StandardCharsets.US_ASCII));
        h.write(7);
        h.write(0);
        h.write(1);
        h.write('x');
        byte[] headers = h.toByteArray();
        int total = 12 + headers.length + 4;
        ByteBuffer b = ByteBuffer.allocate(total);
        b.putInt(total).putInt(headers.length);
        CRC32 crc = new CRC32();
        crc.update(b.array(), 0, 8);
        b.putInt((int) crc.getValue()).put(headers);
        CRC32 all = new CRC32();
        all.update(b.array(), 0, total - 4);
        b.putInt((int) all.getValue());
        EventStreamFrames.Frame f = EventStreamFrames.readAll(b.array()).get(0);
        assertEquals(Map.of(":id", "x"), f.headers());
        assertEquals(0, f.payload().length);
    }

    @Property(tries = 200)
    void anyHeadersAndPayloadSurviveTheRoundTrip(@ForAll("names") List<String> values, @ForAll byte[] payload)
            throws Exception {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < values.size(); i++) {
            headers.put(":h" + i, values.get(i));
        }
        byte[] one = EventStreamFrames.encode(headers, payload);
        byte[] two = new byte[one.length * 2];
        System.arraycopy(one, 0, two, 0, one.length);
        System.arraycopy(one, 0, two, one.length, one.length);
        List<EventStreamFrames.Frame> frames = EventStreamFrames.readAll(two);
        assertEquals(2, frames.size());
        assertEquals(headers, frames.get(1).headers());
        assertArrayEquals(payload, frames.get(1).payload());
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<List<String>> names() {
        return net.jqwik.api.Arbitraries.strings().withCharRange(' ', '\u00ff').withChars('\u00e9', '\u4e2d')
                .ofMaxLength(40).list().ofMaxSize(5);
    }
}
