package dev.resilienceharness.config.yaml;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.config.ConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeReaderTest {

    private final NodeReader r = new NodeReader(Path.of("n.yaml"));

    private static YamlNode value(String yaml) throws ConfigException {
        return ((YamlNode.Mapping) YamlReader.read(Path.of("n.yaml"), ("v: " + yaml + "\n").getBytes(UTF_8)))
                .get("v");
    }

    @Test
    void buildsKeyPaths() {
        assertEquals("policy", NodeReader.child("", "policy"));
        assertEquals("policy.quota", NodeReader.child("policy", "quota"));
        assertEquals("scenarios[2].policy", NodeReader.child(NodeReader.index("scenarios", 2), "policy"));
    }

    @Test
    void integerChecksTypeRangeAndMinimum() throws Exception {
        assertEquals(7, r.integer(value("7"), "v", 1));
        assertEquals(2147483647, r.integer(value("2147483647"), "v", 0));
        assertEquals("n.yaml:1:4: v: numbers too large: 2147483648 does not fit in an integer (at most 2147483647)",
                assertThrows(ConfigException.class, () -> r.integer(value("2147483648"), "v", 0)).getMessage());
        assertEquals("n.yaml:1:4: v: expected an integer of at least 1, got 0",
                assertThrows(ConfigException.class, () -> r.integer(value("0"), "v", 1)).getMessage());
        assertEquals("n.yaml:1:4: v: expected an integer of at least 0, got -99999999999999",
                assertThrows(ConfigException.class, () -> r.integer(value("-99999999999999"), "v", 0)).getMessage());
        assertEquals("n.yaml:1:4: v: expected an integer of at least 0, got the boolean true",
                assertThrows(ConfigException.class, () -> r.integer(value("true"), "v", 0)).getMessage());
    }

    @Test
    void durationTakesTextAndPlainNumbers() throws Exception {
        assertEquals(Duration.ofMillis(10), r.duration(value("10ms"), "v"));
        assertEquals(Duration.ofMillis(250), r.duration(value("0.25"), "v"));
        assertEquals(Duration.ofSeconds(2), r.duration(value("2"), "v"));
        assertEquals(Duration.ofSeconds(2), r.duration(value("\"2\""), "v"));
        assertEquals("n.yaml:1:3: v: expected a duration such as 10ms, 2s, 1m or a plain number of seconds, got"
                + " nothing (null)", assertThrows(ConfigException.class, () -> r.duration(value(""), "v")).getMessage());
    }

    @Test
    void sourceTextKeepsNumbersAsWritten() throws Exception {
        assertEquals("1.50", r.sourceText(value("1.50"), "v", "x"));
        assertEquals("2", r.sourceText(value("2"), "v", "x"));
        assertEquals("soon", r.sourceText(value("soon"), "v", "x"));
        assertNull(r.sourceText(value("null"), "v", "x"));
        assertEquals("n.yaml:1:4: v: expected x, got a list",
                assertThrows(ConfigException.class, () -> r.sourceText(value("[1]"), "v", "x")).getMessage());
    }

    @Test
    void textRefusesNumbersAndBlankText() throws Exception {
        assertEquals("plan", r.text(value("plan"), "v", "an op"));
        assertEquals("n.yaml:1:4: v: expected an op, got the number 12",
                assertThrows(ConfigException.class, () -> r.text(value("12"), "v", "an op")).getMessage());
        assertEquals("n.yaml:1:4: v: expected an op, got an empty text",
                assertThrows(ConfigException.class, () -> r.nonBlankText(value("'  '"), "v", "an op")).getMessage());
    }

    @Test
    void mappingReportsUnknownKeysAtTheKey() throws Exception {
        YamlNode node = value("{a: 1, bb: 2}");
        assertEquals("n.yaml:1:11: v.bb: unknown key 'bb'; did you mean 'b'? The keys allowed here are: a, b",
                assertThrows(ConfigException.class, () -> r.mapping(node, "v", "m", List.of("a", "b"))).getMessage());
        assertEquals("n.yaml:1:3: v: expected m, got nothing (null); write {} for an empty mapping",
                assertThrows(ConfigException.class, () -> r.mapping(value(""), "v", "m", List.of())).getMessage());
    }

    @Test
    void requireReportsAtTheMapping() throws Exception {
        YamlNode.Mapping m = r.mapping(value("{a: 1}"), "v", "m", List.of("a", "b"));
        assertEquals("n.yaml:1:4: v.b: missing required key 'b': say b",
                assertThrows(ConfigException.class, () -> r.require(m, "v", "b", "say b")).getMessage());
    }

    @Test
    void listsAndNonEmptyLists() throws Exception {
        assertEquals(2, r.list(value("[1, 2]"), "v", "a list").size());
        assertEquals("n.yaml:1:4: v: expected a list, got an empty list",
                assertThrows(ConfigException.class, () -> r.nonEmptyList(value("[]"), "v", "a list")).getMessage());
        assertEquals("n.yaml:1:4: v: expected a list, got the text 'x'",
                assertThrows(ConfigException.class, () -> r.list(value("x"), "v", "a list")).getMessage());
    }

    @Test
    void oneOfSuggests() throws Exception {
        assertEquals("stop", r.oneOf(value("stop"), "v", List.of("retry_once", "stop")));
        assertEquals("n.yaml:1:4: v: expected one of retry_once, stop, got the text 'stpo'; did you mean 'stop'?",
                assertThrows(ConfigException.class, () -> r.oneOf(value("stpo"), "v", List.of("retry_once", "stop")))
                        .getMessage());
    }
}
