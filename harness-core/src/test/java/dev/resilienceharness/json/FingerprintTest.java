package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** The tables are described in {@link CanonicalJsonTest}. */
class FingerprintTest {

    @Test
    void matchesEverySpecVector() {
        for (JsonNode c : Json.readTree(TestData.bytes("/vectors/fingerprints.json"))) {
            assertEquals(c.get("fingerprint").stringValue(), Fingerprint.of(c.get("request")), c.toString());
            assertEquals(c.get("fingerprint").stringValue(), Fingerprint.ofCanonical(c.get("canonical").stringValue()));
        }
    }

    @Test
    void matchesPythonOnTheGeneratedDocuments() {
        List<String> wrong = new ArrayList<>();
        for (String line : TestData.lines("/json/canonical-docs.tsv")) {
            String[] columns = line.split("\t", -1);
            if (!Fingerprint.of(Json.readTree(columns[1])).equals(columns[0])) {
                wrong.add(line);
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void namesARecordedCassette() {
        JsonNode cassette = Json.readTree(TestData.bytes("/json/cassette-4aca3e5f13874dbd.json"));
        assertEquals("4aca3e5f13874dbd", Fingerprint.of(cassette.get("request")));
    }

    @Test
    void isSixteenLowercaseHexDigits() {
        assertEquals("44136fa355b3678a", Fingerprint.of(JsonNodeFactory.instance.objectNode()));  // sha256("{}")
        assertEquals("44136fa355b3678a", Fingerprint.ofCanonical("{}"));
    }

    @Test
    void givesTheSameAnswerOnManyThreadsAtOnce() {
        List<String> lines = TestData.lines("/json/canonical-docs.tsv");
        Set<String> wrong = IntStream.range(0, 8000).parallel()
                .mapToObj(i -> lines.get(i % lines.size()).split("\t", -1))
                .filter(columns -> !Fingerprint.of(Json.readTree(columns[1])).equals(columns[0]))
                .map(columns -> columns[1])
                .collect(Collectors.toSet());
        assertEquals(Set.of(), wrong);
    }

    @Test
    void refusesValuesWithoutCanonicalJson() {
        assertThrows(IllegalArgumentException.class,
                () -> Fingerprint.of(JsonNodeFactory.instance.objectNode().put("x", Double.NaN)));
    }
}
