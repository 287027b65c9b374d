package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32;
import org.apiguardian.api.API;

/**
 * The AWS event-stream binary framing ({@code application/vnd.amazon.eventstream}), as Bedrock's
 * {@code ConverseStream} sends its events: each message is its total length (4 bytes, big-endian), its headers' length
 * (4), the CRC32 of those 8 bytes, the headers, the payload, and the CRC32 of everything before it. A header is its
 * name's length (1 byte), the name, a type byte and the value; the harness writes strings only (type 7, a 2-byte
 * length, UTF-8), and reads every type AWS defines, keeping the strings.
 *
 * <p>The reader is strict: a wrong CRC, a length that does not add up, or a stream that ends inside a message is a
 * {@link BadFrame} naming what is wrong, never a guess.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class EventStreamFrames {

    /** The content type of an event stream. */
    public static final String CONTENT_TYPE = "application/vnd.amazon.eventstream";

    /** AWS's own limits: a message of at most 16 MiB, headers of at most 128 KiB. */
    static final int MAX_MESSAGE = 16 * 1024 * 1024;
    static final int MAX_HEADERS = 128 * 1024;

    private static final int PRELUDE = 12;
    private static final int STRING = 7;

    private EventStreamFrames() {
    }

    /**
     * One message: its string headers, in order, and its payload.
     *
     * @param headers the headers whose value is a string ({@code :message-type}, {@code :event-type}, ...)
     * @param payload the payload bytes
     */
    @API(status = INTERNAL, since = "0.1.0")
    public record Frame(Map<String, String> headers, byte[] payload) {
        public Frame {
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
            Objects.requireNonNull(payload, "payload");
        }

        /** Header {@code name}'s value, or {@code null}. */
        public String header(String name) {
            return headers.get(name);
        }

        /** The payload as UTF-8 text. */
        public String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }
    }

    /** An event stream that is not one: a bad CRC, lengths that do not add up, or a message cut off. */
    @API(status = INTERNAL, since = "0.1.0")
    public static final class BadFrame extends IOException {
        private static final long serialVersionUID = 1L;

        BadFrame(String message) {
            super(message);
        }
    }

    /** The bytes of one message with string {@code headers} (in their order) and {@code payload}. */
    public static byte[] encode(Map<String, String> headers, byte[] payload) {
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        for (Map.Entry<String, String> e : headers.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] value = e.getValue().getBytes(StandardCharsets.UTF_8);
            if (name.length == 0 || name.length > 255 || value.length > 0xffff) {
                throw new IllegalArgumentException("an event-stream header's name is 1 to 255 bytes and its value"
                        + " at most 65535: " + e.getKey());
            }
            h.write(name.length);
            h.writeBytes(name);
            h.write(STRING);
            h.write(value.length >>> 8);
            h.write(value.length & 0xff);
            h.writeBytes(value);
        }
        byte[] headerBytes = h.toByteArray();
        int total = PRELUDE + headerBytes.length + payload.length + 4;
        ByteBuffer out = ByteBuffer.allocate(total);
        out.putInt(total).putInt(headerBytes.length);
        out.putInt((int) crc(out.array(), 0, 8));
        out.put(headerBytes).put(payload);
        out.putInt((int) crc(out.array(), 0, total - 4));
        return out.array();
    }

    /**
     * The next message of {@code in}, or {@code null} when the stream ends cleanly between messages.
     *
     * @throws BadFrame    when the message is broken or the stream ends inside it
     * @throws IOException when reading fails
     */
    public static Frame read(InputStream in) throws IOException {
        byte[] prelude = new byte[PRELUDE];
        int got = in.readNBytes(prelude, 0, PRELUDE);
        if (got == 0) {
            return null;
        }
        if (got < PRELUDE) {
            throw new BadFrame(FrameMessages.truncated(got, PRELUDE));
        }
        ByteBuffer p = ByteBuffer.wrap(prelude);
        long total = Integer.toUnsignedLong(p.getInt());
        long headersLength = Integer.toUnsignedLong(p.getInt());
        long preludeCrc = Integer.toUnsignedLong(p.getInt());
        if (crc(prelude, 0, 8) != preludeCrc) {
            throw new BadFrame(FrameMessages.badPreludeCrc(preludeCrc, crc(prelude, 0, 8)));
        }
        if (total < PRELUDE + 4 || total > MAX_MESSAGE || headersLength > MAX_HEADERS
                || headersLength > total - PRELUDE - 4) {
            throw new BadFrame(FrameMessages.badLengths(total, headersLength));
        }
        byte[] message = new byte[(int) total];
        System.arraycopy(prelude, 0, message, 0, PRELUDE);
        int rest = in.readNBytes(message, PRELUDE, (int) total - PRELUDE);
        if (rest < total - PRELUDE) {
            throw new BadFrame(FrameMessages.truncated(PRELUDE + rest, total));
        }
        long messageCrc = Integer.toUnsignedLong(ByteBuffer.wrap(message, (int) total - 4, 4).getInt());
        long actual = crc(message, 0, (int) total - 4);
        if (actual != messageCrc) {
            throw new BadFrame(FrameMessages.badMessageCrc(messageCrc, actual));
        }
        Map<String, String> headers = headers(message, PRELUDE, (int) headersLength);
        int payloadStart = PRELUDE + (int) headersLength;
        byte[] payload = java.util.Arrays.copyOfRange(message, payloadStart, (int) total - 4);
        return new Frame(headers, payload);
    }

    /** Every message of {@code bytes}, in order. */
    public static java.util.List<Frame> readAll(byte[] bytes) throws BadFrame {
        java.util.List<Frame> frames = new java.util.ArrayList<>();
        InputStream in = new java.io.ByteArrayInputStream(bytes);
        try {
            Frame f;
            while ((f = read(in)) != null) {
                frames.add(f);
            }
        } catch (BadFrame e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("a byte array cannot fail to read", e);
        }
        return frames;
    }

    private static Map<String, String> headers(byte[] m, int start, int length) throws BadFrame {
        Map<String, String> out = new LinkedHashMap<>();
        int i = start;
        int end = start + length;
        while (i < end) {
            int nameLength = m[i++] & 0xff;
            if (nameLength == 0 || i + nameLength + 1 > end) {
                throw new BadFrame(FrameMessages.badHeader(i - start - 1));
            }
            String name = new String(m, i, nameLength, StandardCharsets.UTF_8);
            i += nameLength;
            int type = m[i++] & 0xff;
            int size = switch (type) {
                case 0, 1 -> 0; // true, false
                case 2 -> 1;
                case 3 -> 2;
                case 4 -> 4;
                case 5, 8 -> 8; // long, timestamp
                case 9 -> 16; // uuid
                case 6, STRING -> {
                    if (i + 2 > end) {
                        throw new BadFrame(FrameMessages.badHeader(i - start));
                    }
                    int n = ((m[i] & 0xff) << 8) | (m[i + 1] & 0xff);
                    i += 2;
                    yield n;
                }
                default -> throw new BadFrame(FrameMessages.badHeaderType(name, type));
            };
            if (i + size > end) {
                throw new BadFrame(FrameMessages.badHeader(i - start));
            }
            if (type == STRING) {
                out.put(name, new String(m, i, size, StandardCharsets.UTF_8));
            }
            i += size;
        }
        return out;
    }

    private static long crc(byte[] bytes, int off, int len) {
        CRC32 crc = new CRC32();
        crc.update(bytes, off, len);
        return crc.getValue();
    }

    /** The sentences a broken event stream is refused with. */
    static final class FrameMessages {
        private FrameMessages() {
        }

        static String truncated(long got, long expected) {
            return "the event stream ended inside a message: " + got + " of its " + expected + " bytes arrived";
        }

        static String badPreludeCrc(long expected, long actual) {
            return "an event-stream message's prelude CRC32 is " + hex(actual) + ", not the " + hex(expected)
                    + " it carries: the stream is corrupt";
        }

        static String badMessageCrc(long expected, long actual) {
            return "an event-stream message's CRC32 is " + hex(actual) + ", not the " + hex(expected)
                    + " it carries: the stream is corrupt";
        }

        static String badLengths(long total, long headers) {
            return "an event-stream message says it is " + total + " bytes with " + headers
                    + " bytes of headers, which do not fit (at most " + MAX_MESSAGE + " and " + MAX_HEADERS + ")";
        }

        static String badHeader(int at) {
            return "an event-stream message's headers are cut off at byte " + at + " of them";
        }

        static String badHeaderType(String name, int type) {
            return "an event-stream header " + name + " has type " + type + ", which AWS does not define (0 to 9)";
        }

        private static String hex(long v) {
            return String.format("0x%08x", v);
        }
    }
}
