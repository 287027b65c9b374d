package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@link PlainJsonReader} against {@link Json#readTree(byte[])}: where it reads a document, the tree is the one Jackson
 * builds, with the same node classes throughout; where Jackson refuses a document, it declines.
 */
class PlainJsonReaderTest {

    /** Reads {@code bytes} both ways; returns whether the plain reader read them. */
    private static boolean agrees(byte[] bytes, String what) {
        JsonNode plain = PlainJsonReader.read(bytes);
        JsonNode jackson;
        try {
            jackson = Json.readTree(bytes);
        } catch (JacksonException e) {
            assertNull(plain, what + ": Jackson refuses it (" + e.getOriginalMessage() + "), the plain reader read it");
            return false;
        }
        if (plain == null) {
            return false;
        }
        assertSameTree(jackson, plain, what + " at $");
        return true;
    }

    private static void assertSameTree(JsonNode expected, JsonNode actual, String at) {
        assertEquals(expected.getClass(), actual.getClass(), at);
        assertEquals(expected, actual, at);
        if (expected.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> a = actual.properties().iterator();
            for (Map.Entry<String, JsonNode> e : expected.properties()) {
                Map.Entry<String, JsonNode> next = a.next();
                assertEquals(e.getKey(), next.getKey(), at + ": property order");
                assertSameTree(e.getValue(), next.getValue(), at + "." + e.getKey());
            }
        } else if (expected.isArray()) {
            for (int i = 0; i < expected.size(); i++) {
                assertSameTree(expected.get(i), actual.get(i), at + "[" + i + "]");
            }
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void every_json_file_of_the_tests_reads_as_jackson_reads_it() throws IOException, URISyntaxException {
        Path resources = Path.of(PlainJsonReaderTest.class.getResource("/vectors").toURI()).getParent();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(resources)) {
            files = walk.filter(p -> p.toString().endsWith(".json") && Files.isRegularFile(p)).sorted().toList();
        }
        int read = 0;
        for (Path file : files) {
            read += agrees(Files.readAllBytes(file), resources.relativize(file).toString()) ? 1 : 0;
        }
        assertTrue(files.size() >= 40, "test resources hold " + files.size() + " json files");
        assertTrue(read > files.size() / 2, "the plain reader read " + read + " of " + files.size());
    }

    @Test
    void what_python_writes_is_read() {
        byte[] cassette = ascii("{\n  \"request\": {\"model\": \"gpt-4o\", \"temperature\": 0.2, \"max_tokens\": 512,"
                + " \"messages\": [{\"role\": \"user\", \"content\": \"caf\\u00e9 \\\"quoted\\\"\\n\\ttab\\\\ /\\/\"}],"
                + " \"n\": -3, \"big\": 12345678901, \"tiny\": 1.5e-7, \"E\": 2E+3, \"ok\": true, \"no\": false,"
                + " \"none\": null, \"empty\": {}, \"list\": []},\n  \"response\": {\"id\": \"x\"}\n}");
        assertTrue(agrees(cassette, "a cassette"));
        assertEquals("caf\u00e9 \"quoted\"\n\ttab\\ //",
                PlainJsonReader.read(cassette).at("/request/messages/0/content").asString());
    }

    @Test
    void long_escaped_strings_and_a_late_wide_character_read_as_jackson_reads_them() {
        String line = "def f(x):\\n    return x \\u00b1 1  # \\\"tab\\\"\\t";
        String lines = line.repeat(400);
        // Past the decoding buffer's first size, several times over; then one character beyond Latin-1 at the end.
        for (String content : List.of(lines, lines + "\\u20ac", "\\u20ac" + lines, lines + "\\u00ff")) {
            byte[] doc = ascii("{\"a\": \"" + content + "\", \"b\": [\"" + content + "\", \"short\\n\"]}");
            assertNotNull(PlainJsonReader.read(doc), content.substring(content.length() - 10));
            assertTrue(agrees(doc, content.substring(content.length() - 10)));
        }
    }

    @Test
    void what_is_not_plain_is_left_to_jackson() {
        for (String declined : List.of("{\"a\": 1, \"a\": 2}", "{\"a\": -0}", "[1234567890123456789]", "[1e999]",
                "[\"\\ud83d\\ude00\"]", "{\"\\ud800\": 1}", "[\"caf\u00e9\"]", "[\"a\u007fb\"]", "[NaN]", "[01]",
                "[1.]", "[.5]", "{\"a\" 1}", "[1,]", "{\"a\":1,}", "[1] [2]", "", "  ", "[\"\\x41\"]", "[tru]",
                "[\"" + "\t" + "\"]", "[" + "[".repeat(70) + "]".repeat(70) + "]")) {
            assertNull(PlainJsonReader.read(declined.getBytes(StandardCharsets.UTF_8)), declined);
        }
        assertNotNull(PlainJsonReader.read(ascii("[" + "[".repeat(60) + "]".repeat(60) + "]")));
    }

    @Property(tries = 2000)
    void generated_documents_read_as_jackson_reads_them(@ForAll("documents") String json) {
        agrees(ascii(json), json);
    }

    @Property(tries = 500)
    void generated_documents_are_read(@ForAll("documents") String json) {
        assertTrue(agrees(ascii(json), json), json);
    }

    @Property(tries = 3000)
    void mutated_documents_are_refused_or_read_as_jackson_reads_them(@ForAll("documents") String json,
            @ForAll("edits") List<int[]> edits) {
        StringBuilder text = new StringBuilder(json);
        for (int[] edit : edits) {
            int at = Math.floorMod(edit[0], text.length() + 1);
            switch (edit[1]) {
                case 0 -> text.setLength(at);
                case 1 -> text.insert(at, (char) edit[2]);
                default -> {
                    if (at < text.length()) {
                        text.deleteCharAt(at);
                    }
                }
            }
        }
        String mutated = text.toString();
        agrees(mutated.getBytes(StandardCharsets.UTF_8), mutated);
    }

    @Provide
    Arbitrary<String> documents() {
        return value(4);
    }

    @Provide
    Arbitrary<List<int[]>> edits() {
        Arbitrary<int[]> edit = Combinators.combine(Arbitraries.integers().between(0, 400),
                Arbitraries.integers().between(0, 2), Arbitraries.of(PUNCTUATION))
                .as((at, kind, c) -> new int[] {at, kind, c});
        return edit.list().ofMinSize(1).ofMaxSize(3);
    }

    private static final List<Integer> PUNCTUATION = "{}[]\",:\\-+.eE0123456789 \tnutrfalsx/".chars().boxed().toList();

    private Arbitrary<String> value(int depth) {
        List<Arbitrary<String>> choices = new ArrayList<>(List.of(strings(), numbers(),
                Arbitraries.of("true", "false", "null")));
        if (depth > 0) {
            Arbitrary<String> inner = Arbitraries.lazy(() -> value(depth - 1));
            choices.add(inner.list().ofMaxSize(4).map(items -> "[" + String.join(", ", items) + "]"));
            choices.add(Combinators.combine(names().list().uniqueElements().ofMaxSize(4), inner.list().ofSize(4))
                    .as((keys, values) -> {
                        StringBuilder o = new StringBuilder("{");
                        for (int i = 0; i < keys.size(); i++) {
                            o.append(i == 0 ? "" : ",\n  ").append(keys.get(i)).append(": ").append(values.get(i));
                        }
                        return o.append('}').toString();
                    }));
        }
        return Arbitraries.oneOf(choices);
    }

    private static Arbitrary<String> names() {
        return Arbitraries.strings().withChars("abcrole_ID").ofMinLength(0).ofMaxLength(6).map(n -> "\"" + n + "\"");
    }

    private static Arbitrary<String> strings() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(8)
                        .map(s -> s.replace("\\", "\\\\").replace("\"", "\\\"")),
                Arbitraries.of("\\n", "\\t", "\\r", "\\b", "\\f", "\\/", "\\\\", "\\\"", "\\u00e9", "\\u0000",
                        "\\u20AC", "\\uffff"));
        return piece.list().ofMaxSize(4).map(parts -> "\"" + String.join("", parts) + "\"");
    }

    private static Arbitrary<String> numbers() {
        return Arbitraries.oneOf(
                Arbitraries.integers().map(String::valueOf),
                Arbitraries.longs().between(-999_999_999_999_999_999L, 999_999_999_999_999_999L).map(String::valueOf),
                Arbitraries.doubles().map(String::valueOf),
                Arbitraries.doubles().between(-1e6, 1e6).ofScale(4).map(d -> d.toString()),
                Arbitraries.of("0", "1", "-1", "0.5", "2147483647", "2147483648", "-2147483648", "-2147483649",
                        "999999999999999999", "1e5", "1E-300", "-2.5e+10", "0.0", "-0.0", "4.9e-324"));
    }
}
