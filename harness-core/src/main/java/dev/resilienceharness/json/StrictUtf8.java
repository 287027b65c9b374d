package dev.resilienceharness.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apiguardian.api.API;

/**
 * Decodes bytes that must be UTF-8 and nothing else, finding where they stop being so: the yaml and the cassettes are
 * read this way, so that a bad byte is reported at its line and column rather than replaced or guessed around.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class StrictUtf8 {

    /**
     * Where the bytes stop being UTF-8.
     *
     * @param line    1-based line of the first bad byte
     * @param column  1-based column of the first bad byte, in code points
     * @param badByte the first bad byte, 0 to 255
     */
    public record Malformed(int line, int column, int badByte) {
    }

    /** The result of {@link #decode}: the text, or where the bytes stop being UTF-8. */
    public record Decoded(String text, Malformed malformed) {
    }

    private StrictUtf8() {
    }

    /** The text of {@code bytes}, a byte order mark included, or the place of the first byte that is not UTF-8. */
    public static Decoded decode(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        out.flip();
        String text = out.toString();
        if (!result.isError()) {
            return new Decoded(text, null);
        }
        int at = in.position();
        int line = 1 + (int) text.chars().filter(c -> c == '\n').count();
        String lastLine = text.substring(text.lastIndexOf('\n') + 1);
        return new Decoded(null, new Malformed(line, lastLine.codePointCount(0, lastLine.length()) + 1,
                bytes[at] & 0xff));
    }
}
