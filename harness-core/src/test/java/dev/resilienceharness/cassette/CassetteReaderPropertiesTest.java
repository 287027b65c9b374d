package dev.resilienceharness.cassette;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * Whatever bytes a cassette file holds, {@link CassetteReader#parse(Path, byte[])} either returns a cassette or
 * throws a {@link CassetteException} whose message starts with the file and is one line saying what to do;
 * never another exception, never a hang.
 */
class CassetteReaderPropertiesTest {

    private static final Path FILE = Path.of("fuzz", "cassettes", "c06d109f908d3f58.json");
    private static final CassetteReader READER = new CassetteReader(FILE.getParent(),
            VolatilePaths.of(List.of("response.id", "response.created", "request.metadata.*")));
    private static final List<String> REAL = List.of(
            resource("/corpora/plain/cassettes/aed443b7af0e3ebc.json"),
            resource("/corpora/plain/cassettes/c06d109f908d3f58.json"),
            resource("/corpora/mixed/cassettes/4aca3e5f13874dbd.json"),
            resource("/corpora/mixed/cassettes/9b750bd1ba483fd0.json"));
    private static final String JSON_CHARACTERS = " \t\n\r{}[]:,\"\\/-+.0123456789eEtrufalsn_uabcdef\u00e9\u2028\uFEFF"
            + "\u0000\u001f";
    private static final Pattern KEY_LINE = Pattern.compile("(?m)^( *)(\"[^\"\\n]*\": [^\\n]*?),?$");

    private static String resource(String name) {
        try (InputStream in = CassetteReaderPropertiesTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses, and checks that only a well-formed CassetteException may come out, within a few seconds. */
    private static void parsesOrFailsCleanly(byte[] content) {
        Object result = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            try {
                return READER.parse(FILE, content);
            } catch (CassetteException e) {
                return e;
            }
        });
        if (result instanceof Cassette c) {
            Statistics.label("outcome").collect("read");
            assertTrue(c.fingerprint().matches("[0-9a-f]{16}"), c.fingerprint());
            assertNotNull(c.request());
            assertNotNull(c.response());
            return;
        }
        CassetteException e = (CassetteException) result;
        String message = e.getMessage();
        Statistics.label("outcome").collect("refused: " + e.problem()
                .replaceAll("^\\S+ holds a number.*", "a number beyond the double range")
                .replaceAll("^timing\\.\\S+ is .*", "bad timing")
                .replaceAll("[:;(].*", ""));
        assertTrue(message.startsWith(FILE + ":"), message);
        assertEquals(FILE, e.file());
        assertEquals(e.location() + ": " + e.problem() + ". " + e.hint(), message);
        assertNotNull(e.hint(), message);
        assertTrue(e.hint().contains("mvn resilience:record"), message);
        // Jackson's own vocabulary must not leak; a backtick or quote from the file's content may.
        for (String internal : List.of("[Source", "REDACTED", "Feature", "tools.jackson", "Exception", "\n", "\r",
                "\u2028", "\u0000")) {
            assertFalse(message.contains(internal), "'" + internal + "' in: " + message);
        }
    }

    @Property(tries = 1000)
    void randomBytes(@ForAll @Size(max = 3000) byte[] content) {
        parsesOrFailsCleanly(content);
    }

    @Property(tries = 1000)
    void randomTextOfJsonPunctuation(@ForAll("jsonish") String text) {
        parsesOrFailsCleanly(text.getBytes(UTF_8));
    }

    @Property(tries = 2000)
    void mutatedRealCassettes(@ForAll("cassettes") String cassette, @ForAll("mutations") List<Mutation> mutations) {
        parsesOrFailsCleanly(apply(cassette, mutations));
    }

    @Provide
    Arbitrary<String> jsonish() {
        return Arbitraries.strings().withChars(JSON_CHARACTERS.toCharArray()).ofMaxLength(400);
    }

    @Provide
    Arbitrary<String> cassettes() {
        return Arbitraries.of(REAL);
    }

    enum Kind {
        TRUNCATE, FLIP_BYTE, INSERT_CHAR, DELETE_CHAR, DUPLICATE_KEY_LINE, DELETE_LINE, WRAP_IN_ARRAY,
        WRAP_VALUE_IN_ARRAY, HUGE_NUMBER, HUGE_EXPONENT, DEEP_NESTING, APPEND_GARBAGE, LATIN1
    }

    record Mutation(Kind kind, int a, int b, char c) {
    }

    @Provide
    Arbitrary<List<Mutation>> mutations() {
        Arbitrary<Mutation> one = Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.integers().between(0, Integer.MAX_VALUE),
                Arbitraries.integers().between(0, Integer.MAX_VALUE),
                Arbitraries.oneOf(Arbitraries.of(JSON_CHARACTERS.toCharArray()), Arbitraries.chars()))
                .as(Mutation::new);
        return one.list().ofMinSize(1).ofMaxSize(4);
    }

    static byte[] apply(String cassette, List<Mutation> mutations) {
        byte[] bytes = cassette.getBytes(UTF_8);
        for (Mutation m : mutations) {
            bytes = apply(bytes, m);
        }
        return bytes;
    }

    private static byte[] apply(byte[] bytes, Mutation m) {
        String text = new String(bytes, UTF_8);
        int at = bytes.length == 0 ? 0 : m.a() % bytes.length;
        int textAt = text.isEmpty() ? 0 : m.a() % text.length();
        switch (m.kind()) {
            case TRUNCATE -> {
                return java.util.Arrays.copyOf(bytes, at);
            }
            case FLIP_BYTE -> {
                byte[] copy = bytes.clone();
                if (copy.length > 0) {
                    copy[at] ^= (byte) (1 << (m.b() % 8));
                }
                return copy;
            }
            case INSERT_CHAR -> text = text.substring(0, textAt) + m.c() + text.substring(textAt);
            case DELETE_CHAR -> text = text.isEmpty() ? text : text.substring(0, textAt) + text.substring(textAt + 1);
            case DUPLICATE_KEY_LINE -> {
                // Repeats one "key": value line of an object right after itself: the same key twice.
                List<int[]> lines = new ArrayList<>();
                Matcher matcher = KEY_LINE.matcher(text);
                while (matcher.find()) {
                    lines.add(new int[] {matcher.start(), matcher.end()});
                }
                if (!lines.isEmpty()) {
                    int[] line = lines.get(m.b() % lines.size());
                    String original = text.substring(line[0], line[1]);
                    String copy = original.endsWith(",") ? original : original + ",";
                    text = text.substring(0, line[0]) + copy + "\n" + text.substring(line[0]);
                }
            }
            case DELETE_LINE -> {
                String[] lines = text.split("\n", -1);
                int drop = m.b() % lines.length;
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < lines.length; i++) {
                    if (i != drop) {
                        sb.append(lines[i]).append(i < lines.length - 1 ? "\n" : "");
                    }
                }
                text = sb.toString();
            }
            case WRAP_IN_ARRAY -> text = "[" + text + "]";
            case WRAP_VALUE_IN_ARRAY -> {
                int colon = text.indexOf(": ", textAt);
                if (colon >= 0) {
                    int end = text.indexOf('\n', colon);
                    end = end < 0 ? text.length() : end;
                    String value = text.substring(colon + 2, end);
                    boolean comma = value.endsWith(",");
                    String bare = comma ? value.substring(0, value.length() - 1) : value;
                    text = text.substring(0, colon + 2) + "[" + bare + "]" + (comma ? "," : "") + text.substring(end);
                }
            }
            case HUGE_NUMBER -> text = replaceFirstNumber(text, textAt, "9".repeat(1 + m.b() % 5000));
            case HUGE_EXPONENT -> text = replaceFirstNumber(text, textAt, (m.b() % 2 == 0 ? "-" : "") + "1e"
                    + (300 + m.b() % 400));
            case DEEP_NESTING -> {
                int depth = 1 + m.b() % 700;
                text = text.substring(0, textAt) + "[".repeat(depth) + "]".repeat(depth) + text.substring(textAt);
            }
            case APPEND_GARBAGE -> text = text + m.c();
            case LATIN1 -> {
                return (text.substring(0, textAt) + "\u00e9" + text.substring(textAt)).getBytes(
                        java.nio.charset.StandardCharsets.ISO_8859_1);
            }
        }
        return text.getBytes(UTF_8);
    }

    private static String replaceFirstNumber(String text, int from, String number) {
        Matcher matcher = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?").matcher(text);
        if (matcher.find(from) || matcher.find(0)) {
            return text.substring(0, matcher.start()) + number + text.substring(matcher.end());
        }
        return text;
    }
}
