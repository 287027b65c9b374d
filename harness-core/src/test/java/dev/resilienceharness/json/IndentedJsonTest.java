package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code json/indented-docs.jsonl} holds the first 300 documents of {@code canonical-docs.tsv} (see
 * {@link CanonicalJsonTest}) as {@code {"input": json.dumps(doc), "pretty": json.dumps(doc, indent=2)}},
 * printed by Python 3.11: keys in insertion order, non-ASCII escaped.
 */
class IndentedJsonTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void matchesPythonOnTheGeneratedDocuments() {
        List<String> lines = TestData.lines("/json/indented-docs.jsonl");
        assertEquals(300, lines.size());
        List<String> wrong = new ArrayList<>();
        for (String line : lines) {
            JsonNode sample = Json.readTree(line);
            String expected = sample.get("pretty").stringValue();
            String ours = IndentedJson.write(Json.readTree(sample.get("input").stringValue()));
            if (!ours.equals(expected)) {
                wrong.add("expected\n" + expected + "\ngot\n" + ours);
            }
        }
        assertEquals(List.of(), wrong.subList(0, Math.min(3, wrong.size())), wrong.size() + " differ");
    }

    @Test
    void rewritesAWorkshopCassetteByteForByte() {
        byte[] file = TestData.bytes("/json/cassette-4aca3e5f13874dbd.json");
        assertEquals(new String(file, StandardCharsets.UTF_8), IndentedJson.write(Json.readTree(file)));
    }

    @Test
    void keepsInsertionOrderAndEscapesNonAscii() {
        ObjectNode node = NODES.objectNode().put("z", "caf\u00e9").put("a", 1.5);
        node.putObject("empty");
        node.putArray("none");
        assertEquals("{\n  \"z\": \"caf\\u00e9\",\n  \"a\": 1.5,\n  \"empty\": {},\n  \"none\": []\n}",
                IndentedJson.write(node));
    }

    @Test
    void writesScalarsAlone() {
        assertEquals("1e+16", IndentedJson.write(NODES.numberNode(1e16)));
        assertEquals("\"\\ud83d\\ude00\"", IndentedJson.write(NODES.stringNode("\ud83d\ude00")));
    }

    @Test
    void refusesNanAndInfinities() {
        assertThrows(IllegalArgumentException.class,
                () -> IndentedJson.write(NODES.objectNode().put("x", Double.NEGATIVE_INFINITY)));
    }
}
