package dev.resilienceharness.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.DoubleNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Reads the plain JSON that almost every cassette is (what Python's {@code json.dumps} writes: ASCII, the usual
 * escapes, integers of up to 18 digits, decimal fractions) straight from the bytes into the tree {@link Json#readTree}
 * would build, node for node and class for class (an object's members are held in a {@link SmallObjectMap}, and the
 * object equals Jackson's member for member). On anything else it declines and returns {@code null}, and
 * {@link Json#readTree} reads the bytes as before, so every refusal and every error message stays Jackson's.
 *
 * <p>Declined: a byte outside printable ASCII and JSON's whitespace, a repeated key, an escape other than JSON's own,
 * a {@code \}{@code u} escape of a surrogate, {@code -0} and other integers beyond 18 digits, a float whose double is
 * not finite, a number of over 64 characters, nesting deeper than 64, and anything that is not exactly one JSON value.
 * A cold JVM reads a cassette corpus with this small reader in a fraction of the time Jackson's general parser takes
 * to be compiled; {@code PlainJsonReaderTest} checks it against {@link Json#readTree} on every JSON file of the tests,
 * on generated documents and on mutated ones.
 */
public final class PlainJsonReader {

    private static final int MAX_DEPTH = 64;
    private static final int MAX_NUMBER_CHARS = 64;
    private static final int MAX_INT_DIGITS = 18;

    /** Thrown to give up; carries no stack trace, since declining is an expected outcome. */
    private static final class Declined extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Declined() {
            super(null, null, false, false);
        }
    }

    private static final Declined DECLINED = new Declined();

    /** Recently seen property names, so that 10,000 files naming {@code "role"} share one string. */
    private static final ThreadLocal<RecentTexts> NAMES = ThreadLocal.withInitial(() -> new RecentTexts(1024));

    private final byte[] in;
    private final RecentTexts names;
    /** Where an escaped string is decoded. */
    private byte[] scratch = new byte[256];
    private int pos;

    private PlainJsonReader(byte[] in) {
        this.in = in;
        this.names = NAMES.get();
    }

    /**
     * The tree of {@code bytes}, equal to what {@link Json#readTree(byte[])} returns for them, or {@code null} when
     * they are not plain JSON as described above.
     */
    public static JsonNode read(byte[] bytes) {
        PlainJsonReader reader = new PlainJsonReader(bytes);
        try {
            reader.whitespace();
            JsonNode root = reader.value(0);
            reader.whitespace();
            return reader.pos == bytes.length ? root : null;
        } catch (Declined | ArrayIndexOutOfBoundsException e) {
            // running off the end is a truncated document: Jackson's to report
            return null;
        }
    }

    private void whitespace() {
        byte[] b = in;
        int p = pos;
        while (p < b.length) {
            byte c = b[p];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                break;
            }
            p++;
        }
        pos = p;
    }

    private JsonNode value(int depth) {
        byte c = in[pos];
        switch (c) {
            case '{':
                return object(depth + 1);
            case '[':
                return array(depth + 1);
            case '"':
                pos++;
                String text = string();
                return StringNode.valueOf(text);
            case 't':
                literal("true");
                return BooleanNode.TRUE;
            case 'f':
                literal("false");
                return BooleanNode.FALSE;
            case 'n':
                literal("null");
                return NullNode.instance;
            default:
                if (c == '-' || c >= '0' && c <= '9') {
                    return number();
                }
                throw DECLINED;
        }
    }

    private void literal(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (in[pos + i] != word.charAt(i)) {
                throw DECLINED;
            }
        }
        pos += word.length();
    }

    private ObjectNode object(int depth) {
        if (depth > MAX_DEPTH) {
            throw DECLINED;
        }
        pos++;
        whitespace();
        SmallObjectMap.Members children = new SmallObjectMap.Members();
        if (in[pos] == '}') {
            pos++;
            return children.object();
        }
        while (true) {
            if (in[pos] != '"') {
                throw DECLINED;
            }
            pos++;
            String name = name();
            whitespace();
            if (in[pos] != ':') {
                throw DECLINED;
            }
            pos++;
            whitespace();
            if (!children.add(name, value(depth))) {
                throw DECLINED;
            }
            whitespace();
            byte c = in[pos++];
            if (c == '}') {
                return children.object();
            }
            if (c != ',') {
                throw DECLINED;
            }
            whitespace();
        }
    }

    private ArrayNode array(int depth) {
        if (depth > MAX_DEPTH) {
            throw DECLINED;
        }
        pos++;
        whitespace();
        List<JsonNode> items = new ArrayList<>();
        if (in[pos] == ']') {
            pos++;
            return new ArrayNode(JsonNodeFactory.instance, items);
        }
        while (true) {
            items.add(value(depth));
            whitespace();
            byte c = in[pos++];
            if (c == ']') {
                return new ArrayNode(JsonNodeFactory.instance, items);
            }
            if (c != ',') {
                throw DECLINED;
            }
            whitespace();
        }
    }

    /** A property name, the opening quote read; one without escapes is shared with earlier ones of the same text. */
    private String name() {
        int start = pos;
        int hash = 0;
        byte[] b = in;
        int p = start;
        while (true) {
            byte c = b[p];
            if (c == '"') {
                break;
            }
            if (c == '\\' || c < 0x20 || c == 0x7f) {
                return string();
            }
            hash = 31 * hash + c;
            p++;
        }
        pos = p + 1;
        return names.text(b, start, p - start, hash);
    }

    /** A string, the opening quote read. */
    private String string() {
        int start = pos;
        byte[] b = in;
        int p = start;
        while (true) {
            byte c = b[p];
            if (c == '"') {
                pos = p + 1;
                return new String(b, start, p - start, StandardCharsets.ISO_8859_1);
            }
            if (c == '\\') {
                break;
            }
            if (c < 0x20 || c == 0x7f) {
                throw DECLINED;
            }
            p++;
        }
        // Escaped: decoded into a reused buffer of Latin-1 bytes, which becomes the string in one copy. A \\u escape
        // beyond Latin-1 (rare in what Python writes) takes the slower way, from the start of the string.
        int n = p - start;
        byte[] out = scratch.length >= n + 16 ? scratch : (scratch = new byte[Math.max(2 * scratch.length, n + 16)]);
        System.arraycopy(b, start, out, 0, n);
        while (true) {
            byte c = b[p++];
            if (c == '"') {
                pos = p;
                return new String(out, 0, n, StandardCharsets.ISO_8859_1);
            }
            if (c < 0x20 || c == 0x7f) {
                throw DECLINED;
            }
            if (n == out.length) {
                out = scratch = Arrays.copyOf(out, 2 * out.length);
            }
            if (c != '\\') {
                out[n++] = c;
                continue;
            }
            int width = b[p] == 'u' ? 5 : 1;
            int code = escaped(b, p);
            p += width;
            if (code > 0xff) {
                return wideString(start);
            }
            out[n++] = (byte) code;
        }
    }

    /**
     * The character of the escape whose letter is at {@code b[p]}, the backslash read: one of JSON's own, or a
     * {@code \\u} escape of anything but a surrogate. Anything else is declined.
     */
    private static int escaped(byte[] b, int p) {
        return switch (b[p]) {
            case '"', '\\', '/' -> b[p];
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> {
                int code = hex4(b, p + 1);
                if (Character.isSurrogate((char) code)) {
                    throw DECLINED;
                }
                yield code;
            }
            default -> throw DECLINED;
        };
    }

    /** The four hex digits of a {@code \\u} escape at {@code b[p]}. */
    private static int hex4(byte[] b, int p) {
        int code = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(b[p + i], 16);
            if (digit < 0) {
                throw DECLINED;
            }
            code = code << 4 | digit;
        }
        return code;
    }

    /** A string with a character beyond Latin-1, read again from its first character at {@code start}. */
    private String wideString(int start) {
        byte[] b = in;
        int p = start;
        StringBuilder text = new StringBuilder();
        while (true) {
            byte c = b[p++];
            if (c == '"') {
                pos = p;
                return text.toString();
            }
            if (c < 0x20 || c == 0x7f) {
                throw DECLINED;
            }
            if (c != '\\') {
                text.append((char) c);
                continue;
            }
            int width = b[p] == 'u' ? 5 : 1;
            text.append((char) escaped(b, p));
            p += width;
        }
    }

    private JsonNode number() {
        int start = pos;
        byte[] b = in;
        int p = start;
        boolean negative = b[p] == '-';
        if (negative) {
            p++;
        }
        int digitsFrom = p;
        if (b[p] == '0') {
            p++;
            if (p < b.length && b[p] >= '0' && b[p] <= '9') {
                throw DECLINED;
            }
        } else {
            p = digits(p);
        }
        int intDigits = p - digitsFrom;
        boolean integral = true;
        if (p < b.length && b[p] == '.') {
            integral = false;
            p = digits(p + 1);
        }
        if (p < b.length && (b[p] == 'e' || b[p] == 'E')) {
            integral = false;
            p++;
            if (b[p] == '+' || b[p] == '-') {
                p++;
            }
            p = digits(p);
        }
        if (p - start > MAX_NUMBER_CHARS) {
            throw DECLINED;
        }
        pos = p;
        if (integral) {
            if (intDigits > MAX_INT_DIGITS || negative && intDigits == 1 && b[digitsFrom] == '0') {
                throw DECLINED;
            }
            long value = 0;
            for (int i = digitsFrom; i < p; i++) {
                value = value * 10 + (b[i] - '0');
            }
            if (negative) {
                value = -value;
            }
            return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? IntNode.valueOf((int) value)
                    : LongNode.valueOf(value);
        }
        double value = Double.parseDouble(new String(b, start, p - start, StandardCharsets.ISO_8859_1));
        if (Double.isInfinite(value) || Double.isNaN(value)) {
            throw DECLINED;
        }
        return DoubleNode.valueOf(value);
    }

    /** The end of one or more digits from {@code p}. */
    private int digits(int p) {
        byte[] b = in;
        int from = p;
        while (p < b.length && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        if (p == from) {
            throw DECLINED;
        }
        return p;
    }
}
