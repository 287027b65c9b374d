package dev.resilienceharness.config.yaml;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoaderPropertiesTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * {@link SubsetYamlReader} either gives up or builds exactly the tree snakeyaml-engine builds — the same nodes,
 * texts, scalar types, lines and columns (the nodes are records, so {@code equals} compares all of them) — and gives
 * up on every text the full reader refuses.
 */
class SubsetYamlReaderTest {

    private static final Path FILE = Path.of("t.yaml");
    private static final String PLAIN = text("plain-corpus.yaml");
    private static final String FULL = text("full.yaml");
    private static final String MIXED = text("mixed-corpus.yaml");
    private static final String BENCH = text("bench-corpus-sample.yaml");
    private static final String YAML_CHARACTERS = " \n:-[]{},&*!|>'\"#%@`?~.0123456789abexz_";

    private static String text(String name) {
        try (InputStream in = SubsetYamlReaderTest.class.getResourceAsStream("/config/" + name)) {
            return new String(in.readAllBytes(), UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads {@code text} both ways: the subset's tree must be the full reader's, and the subset must give up where
     * the full reader refuses. Returns whether the subset read it.
     */
    private static boolean agrees(String text) {
        YamlNode subset = SubsetYamlReader.read(text.getBytes(UTF_8));
        YamlNode full;
        try {
            full = YamlReader.readFully(FILE, text);
        } catch (ConfigException e) {
            assertNull(subset, () -> "the subset read what the full reader refuses (" + e.getMessage() + "):\n"
                    + text);
            return false;
        }
        if (subset != null) {
            assertEquals(full, subset, () -> "the subset read this differently:\n" + text);
        }
        // Long mappings are read in parts on all cores: with parts of one and of two keys, every mapping of more than
        // two keys here is read so, and must come out the same.
        for (int[] parts : new int[][] {{2, 1}, {3, 2}}) {
            YamlNode inParts = SubsetYamlReader.read(text.getBytes(UTF_8), parts[0], parts[1], null);
            assertEquals(subset, inParts, () -> "read in parts of " + parts[1] + " keys, the subset read this"
                    + " differently:\n" + text);
        }
        // With the requests' flow mappings read as JSON, whole and in parts, the tree is the same once the request
        // values of both are turned into the JSON the loader makes of them; and it gives up where the subset does.
        for (int[] parts : new int[][] {{SubsetYamlReader.PARALLEL_KEYS, SubsetYamlReader.KEYS_PER_PART}, {2, 1}}) {
            YamlNode json = SubsetYamlReader.read(text.getBytes(UTF_8), parts[0], parts[1], "requests");
            if (subset == null) {
                assertNull(json, () -> "read as JSON, the subset read what it gives up on otherwise:\n" + text);
                continue;
            }
            assertNotNull(json, () -> "read as JSON, the subset gave up on what it reads otherwise:\n" + text);
            assertEquals(requestsAsJson(subset), requestsAsJson(json), () -> "read as JSON in parts of " + parts[1]
                    + " keys, the subset read this differently:\n" + text);
        }
        return subset != null;
    }

    /**
     * {@code root} with each value of its {@code requests} mapping that is a mapping turned into the JSON object
     * {@link JsonValues} makes of it, where it stands; a value the loader refuses, or one read as JSON already, stays as
     * it is.
     */
    private static YamlNode requestsAsJson(YamlNode root) {
        if (!(root instanceof YamlNode.Mapping top) || !(top.get("requests") instanceof YamlNode.Mapping requests)) {
            return root;
        }
        NodeReader r = new NodeReader(FILE);
        List<YamlNode.Entry> entries = new ArrayList<>();
        for (YamlNode.Entry e : requests.entries()) {
            YamlNode value = e.value();
            // A request the reader made JSON stays as it is, with the weight and height it counted while reading:
            // the tree's, turned into JSON here, has them from a walk.
            if (JsonValues.spellsObject(value) && !(value instanceof YamlNode.Json)) {
                try {
                    value = new YamlNode.Json(JsonValues.object(r, value, "requests", "a request"), value.line(),
                            value.column());
                } catch (ConfigException refused) {
                    // As the loader would: an error at the node, which the full tree keeps.
                }
            }
            entries.add(new YamlNode.Entry(e.key(), e.line(), e.column(), value));
        }
        List<YamlNode.Entry> root2 = new ArrayList<>();
        for (YamlNode.Entry e : top.entries()) {
            root2.add(e.key().equals("requests") ? new YamlNode.Entry(e.key(), e.line(), e.column(),
                    new YamlNode.Mapping(entries, requests.line(), requests.column())) : e);
        }
        return new YamlNode.Mapping(root2, top.line(), top.column());
    }

    @Test
    void readsTheBenchmarkCorpusShapeItself() {
        assertTrue(agrees(BENCH));
        assertTrue(agrees(PLAIN));
    }

    @Test
    void readsEveryYamlOfTheseTestsAsTheFullReaderDoes() throws IOException {
        Path root = Path.of("src/test/resources");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertFalse(files.isEmpty());
        int read = 0;
        for (Path f : files) {
            if (agrees(Files.readString(f))) {
                read++;
            }
        }
        assertTrue(read > 0, "the subset read none of " + files.size() + " files");
    }

    @Test
    void keepsLinesAndColumnsOfEveryShape() {
        assertTrue(agrees("a: 1\nb:\n  - x\n  - {k: v, l: [1, -2, 0.5]}\n  - name: first\n    ops: [p, q]\nc: end\n"));
        assertTrue(agrees("list:\n- a\n- b: 1\n  c: 2\nnext: x\n"));
        assertTrue(agrees("# comment\n\nroot:   # trailing\n    deep:\n      deeper: 'it''s'   \n    back: \"q\\\"\"\n"));
        assertTrue(agrees("url: https://llm.example.test/v1\nplain: a[0], b{1} and#not-a-comment # but this is\n"));
        assertTrue(agrees("- a\n- b\n"));
        assertTrue(agrees("empty: {}\nnone: []\nnested: [[a, b], {c: d}, []]\n"));
    }

    @Test
    void readsALongMappingInPartsAsItReadsItWhole() throws ConfigException {
        StringBuilder yaml = new StringBuilder("version: 1\nrequests:\n");
        for (int i = 0; i < 3 * SubsetYamlReader.PARALLEL_KEYS; i++) {
            yaml.append("  op").append(i).append(": {model: m, messages: [{role: user, content: text ").append(i)
                    .append("}]}\n");
            if (i % 500 == 0) {
                // Comments, blank lines and nested blocks between keys, wherever a part happens to end.
                yaml.append("  # a comment\n\n  nested").append(i).append(":\n    a: 1\n    list:\n    - x\n");
            }
        }
        yaml.append("scenarios:\n  - name: s\n    ops: [op1]\n");
        assertTrue(agrees(yaml.toString()));
        YamlNode tree = SubsetYamlReader.read(yaml.toString().getBytes(UTF_8));
        assertEquals(YamlReader.readFully(FILE, yaml.toString()), tree);
        // A key repeated in another part, or a line a part cannot read, gives the document to the full reader.
        assertNull(SubsetYamlReader.read((yaml.toString().replace("  op3000:", "  op7:")).getBytes(UTF_8)));
        assertNull(SubsetYamlReader.read((yaml.toString().replace("  op2500: {", "  op2500: &a {"))
                .getBytes(UTF_8)));
    }

    @Test
    void readsAShortTextItMeetsAgainAsTheSameString() {
        String longText = "a sentence longer than any key and read anew each time";
        String yaml = "requests:\n  a: {model: m-1, messages: [{role: user, content: " + longText + "}]}\n"
                + "  b: {model: m-1, messages: [{role: user, content: " + longText + "}]}\n";
        YamlNode.Mapping requests = (YamlNode.Mapping) ((YamlNode.Mapping) SubsetYamlReader.read(yaml.getBytes(UTF_8)))
                .get("requests");
        YamlNode.Mapping a = (YamlNode.Mapping) requests.get("a");
        YamlNode.Mapping b = (YamlNode.Mapping) requests.get("b");
        assertSame(a.entries().get(0).key(), b.entries().get(0).key());
        assertSame(((YamlNode.Scalar) a.get("model")).text(), ((YamlNode.Scalar) b.get("model")).text());
        assertNotSame(content(a), content(b));
        assertEquals(content(a), content(b));
        // So in the JSON the requests are read into.
        YamlNode.Mapping json = (YamlNode.Mapping) ((YamlNode.Mapping) SubsetYamlReader.read(yaml.getBytes(UTF_8),
                "requests")).get("requests");
        tools.jackson.databind.node.ObjectNode ja = ((YamlNode.Json) json.get("a")).value();
        tools.jackson.databind.node.ObjectNode jb = ((YamlNode.Json) json.get("b")).value();
        assertSame(ja.propertyNames().iterator().next(), jb.propertyNames().iterator().next());
        assertSame(ja.get("model").stringValue(), jb.get("model").stringValue());
        // Many texts of one length share the few places where recent ones are kept; each still reads as written.
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            many.append(String.format("k%04d: v%04d%n", i, 2999 - i));
        }
        YamlNode.Mapping read = (YamlNode.Mapping) SubsetYamlReader.read(many.toString().getBytes(UTF_8));
        for (int i = 0; i < 3000; i++) {
            YamlNode.Entry e = read.entries().get(i);
            assertEquals(List.of(String.format("k%04d", i), String.format("v%04d", 2999 - i)),
                    List.of(e.key(), ((YamlNode.Scalar) e.value()).text()));
        }
    }

    private static String content(YamlNode.Mapping request) {
        YamlNode.Mapping message = (YamlNode.Mapping) ((YamlNode.Sequence) request.get("messages")).items().get(0);
        return ((YamlNode.Scalar) message.get("content")).text();
    }

    @Test
    void readsTheRequestsOneLineFlowMappingsStraightIntoJson() throws ConfigException {
        YamlNode.Mapping json = (YamlNode.Mapping) SubsetYamlReader.read(BENCH.getBytes(UTF_8), "requests");
        YamlNode.Mapping tree = (YamlNode.Mapping) YamlReader.readFully(FILE, BENCH);
        NodeReader r = new NodeReader(FILE);
        List<YamlNode.Entry> requests = ((YamlNode.Mapping) json.get("requests")).entries();
        assertFalse(requests.isEmpty());
        for (YamlNode.Entry e : requests) {
            YamlNode.Json request = assertInstanceOf(YamlNode.Json.class, e.value(), e.key());
            YamlNode written = ((YamlNode.Mapping) tree.get("requests")).get(e.key());
            assertEquals(JsonValues.object(r, written, "requests", "a request"), request.value(), e.key());
            assertEquals(List.of(written.line(), written.column(), written.weight(), written.height()),
                    List.of(request.line(), request.column(), request.weight(), request.height()), e.key());
        }
        // Only the requests, and only their one-line flow mappings: a block mapping there, and flow mappings
        // anywhere else, are the tree's nodes.
        YamlNode.Mapping mixed = (YamlNode.Mapping) SubsetYamlReader.read(("requests:\n  a: {model: m, n: [1, 0.5,"
                + " true, null, 'q']}\n  b:\n    model: m\n    o: {x: 1}\nother: {model: m}\n").getBytes(UTF_8),
                "requests");
        YamlNode.Mapping mixedRequests = (YamlNode.Mapping) mixed.get("requests");
        assertInstanceOf(YamlNode.Json.class, mixedRequests.get("a"));
        assertEquals("{\"model\":\"m\",\"n\":[1,0.5,true,null,\"q\"]}",
                ((YamlNode.Json) mixedRequests.get("a")).value().toString());
        assertInstanceOf(YamlNode.Mapping.class, ((YamlNode.Mapping) mixedRequests.get("b")).get("o"));
        assertInstanceOf(YamlNode.Mapping.class, mixed.get("other"));
        // A value the loader would refuse leaves the document to the full reader, which reports it.
        assertNull(SubsetYamlReader.read("requests:\n  a: {k: [1, 1e3]}\n".getBytes(UTF_8), "requests"));
        // Nor does a repeated key inside one become a JSON object that keeps the last.
        assertNull(SubsetYamlReader.read("requests:\n  a: {k: 1, k: 2}\n".getBytes(UTF_8), "requests"));
    }

    @Test
    void typesScalarsAsTheFullReaderDoes() {
        for (String scalar : List.of("3", "-4", "0", "0.25", "-0.5", "10.0", "true", "false", "null", "30s", "100ms",
                "1h", "text", "a-b", "x.y", "gpt-4o-mini", "123456789012345678", "-0.0", "12.5 percent",
                "Keep it minimal. Then test", "Infinity and beyond", "NULL pointers")) {
            assertTrue(agrees("k: " + scalar + "\n"), scalar);
            assertTrue(agrees("k: [" + scalar + "]\n"), scalar);
            assertTrue(agrees("- " + scalar + "\n"), scalar);
        }
    }

    @Test
    void leavesEverythingElseToTheFullReader() {
        for (String yaml : List.of("", "# only\n", "---\na: 1\n", "a: 1\n---\nb: 2\n", "%YAML 1.2\n---\na: 1\n",
                "a: &x 1\nb: *x\n", "a: !!str 5\n", "a: |\n  text\n", "a: >\n  text\n", "a: long\n  text\n",
                "a: [1,\n  2]\n", "\"a\": 1\n", "? a\n: 1\n", "a:\tb\n", "a: 1\na: 2\n", "a:\nb: 1\n",
                "a: yes\n", "a: ~\n", "a: 0x10\n", "a: 1e3\n", "a: .inf\n", "a: 007\n", "a: +1\n", "a: True\n",
                "a: 1_000\n", "a: 12:30\n", "a: b: c\n", "a: é\n", "a: \"\\u0041\"\n", "a: {b}\n", "a: [b,]\n",
                "  a: 1\n", "a: 1\n b: 2\n", "a: - b\n", "a: [x: y]\n", "a: 1234567890123456789\n", "a: Infinity\n",
                "a: NaN\n", "a: OFF\n")) {
            agrees(yaml);
            assertNull(SubsetYamlReader.read(yaml.getBytes(UTF_8)), yaml);
        }
        assertNotNull(SubsetYamlReader.read("a: 1\n".getBytes(UTF_8)));
    }

    @Property(tries = 1000)
    void mutatedCorpusReadsAsTheFullReaderReadsIt(@ForAll("mutations") List<ConfigLoaderPropertiesTest.Mutation> m) {
        Statistics.label("subset").collect(agrees(ConfigLoaderPropertiesTest.apply(PLAIN, m)));
    }

    @Property(tries = 500)
    void mutatedBenchmarkCorpusReadsAsTheFullReaderReadsIt(
            @ForAll("mutations") List<ConfigLoaderPropertiesTest.Mutation> m) {
        Statistics.label("subset").collect(agrees(ConfigLoaderPropertiesTest.apply(BENCH, m)));
    }

    @Property(tries = 500)
    void mutatedExamplesReadAsTheFullReaderReadsThem(
            @ForAll("mutations") List<ConfigLoaderPropertiesTest.Mutation> m) {
        agrees(ConfigLoaderPropertiesTest.apply(FULL, m));
        agrees(ConfigLoaderPropertiesTest.apply(MIXED, m));
    }

    @Property(tries = 2000)
    void randomTextOfYamlPunctuation(@ForAll("yamlish") String text) {
        agrees(text);
    }

    @Provide
    Arbitrary<String> yamlish() {
        return Arbitraries.strings().withChars(YAML_CHARACTERS.toCharArray()).ofMaxLength(120);
    }

    @Provide
    Arbitrary<List<ConfigLoaderPropertiesTest.Mutation>> mutations() {
        return new ConfigLoaderPropertiesTest().mutations();
    }
}
