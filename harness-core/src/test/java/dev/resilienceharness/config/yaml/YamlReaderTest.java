package dev.resilienceharness.config.yaml;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.resilienceharness.config.ConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class YamlReaderTest {

    private static final Path FILE = Path.of("t.yaml");

    private static YamlNode read(String yaml) throws ConfigException {
        return YamlReader.read(FILE, yaml.getBytes(UTF_8));
    }

    private static String error(String yaml) {
        return assertThrows(ConfigException.class, () -> read(yaml)).getMessage();
    }

    private static YamlNode.Scalar scalar(YamlNode node) {
        return (YamlNode.Scalar) node;
    }

    @Test
    void keepsLinesColumnsAndKeyOrder() throws Exception {
        YamlNode.Mapping root = (YamlNode.Mapping) read("b: 1\na:\n  - x\n  - {k: v}\n");

        assertEquals(List.of("b", "a"), root.entries().stream().map(YamlNode.Entry::key).toList());
        YamlNode.Entry a = root.entry("a");
        assertEquals(2, a.line());
        assertEquals(1, a.column());
        YamlNode.Sequence list = (YamlNode.Sequence) a.value();
        assertEquals(3, list.line());
        assertEquals(3, list.column());
        YamlNode.Mapping flow = (YamlNode.Mapping) list.items().get(1);
        assertEquals(4, flow.line());
        assertEquals(5, flow.column());
        YamlNode.Scalar v = scalar(flow.get("k"));
        assertEquals(4, v.line());
        assertEquals(9, v.column());
    }

    @Test
    void typesScalarsByTheJsonSchema() throws Exception {
        YamlNode.Sequence list = (YamlNode.Sequence) read(
                "[3, -4, 0.25, 1e3, true, false, null, '', yes, ~, \"2\", 0x10, !!str 5, .inf]");

        List<YamlNode.ScalarType> types = list.items().stream().map(n -> scalar(n).type()).toList();
        assertEquals(List.of(YamlNode.ScalarType.INTEGER, YamlNode.ScalarType.INTEGER, YamlNode.ScalarType.FLOAT,
                YamlNode.ScalarType.FLOAT, YamlNode.ScalarType.BOOLEAN, YamlNode.ScalarType.BOOLEAN,
                YamlNode.ScalarType.NULL, YamlNode.ScalarType.STRING, YamlNode.ScalarType.STRING,
                YamlNode.ScalarType.STRING, YamlNode.ScalarType.STRING, YamlNode.ScalarType.STRING,
                YamlNode.ScalarType.STRING, YamlNode.ScalarType.FLOAT), types);
        assertEquals("0.25", scalar(list.items().get(2)).text());
        assertEquals("5", scalar(list.items().get(12)).text());
    }

    @Test
    void emptyValueIsNull() throws Exception {
        YamlNode.Mapping root = (YamlNode.Mapping) read("a:\nb: 1\n");
        assertEquals(YamlNode.ScalarType.NULL, scalar(root.get("a")).type());
    }

    @Test
    void noDocumentIsNull() throws Exception {
        assertNull(read(""));
        assertNull(read("# just a comment\n"));
    }

    @Test
    void aliasSharesTheAnchoredNode() throws Exception {
        YamlNode.Mapping root = (YamlNode.Mapping) read("a: &x {k: [1, 2]}\nb: *x\nc: &s hi\nd: *s\n");
        assertSame(root.get("a"), root.get("b"));
        assertSame(root.get("c"), root.get("d"));
        assertEquals(1 + 4 + 4 + 1 + 1, root.weight());
    }

    @Test
    void redefinedAnchorAppliesFromThereOn() throws Exception {
        YamlNode.Mapping root = (YamlNode.Mapping) read("a: &x 1\nb: *x\nc: &x 2\nd: *x\n");
        assertEquals("1", scalar(root.get("b")).text());
        assertEquals("2", scalar(root.get("d")).text());
    }

    @Test
    void aliasWithoutAnchor() {
        assertEquals("t.yaml:2:5: b[0]: the alias *y refers to no anchor &y declared before it",
                error("a: 1\nb: [*y]\n"));
    }

    @Test
    void aliasInsideItsOwnAnchorIsRefused() {
        assertEquals("t.yaml:1:8: a[0]: the alias *x refers to no anchor &x declared before it",
                error("a: &x [*x]\n"));
    }

    /** l1 to l3 expand to 12330 values; the eighth alias of l4 (11111 each) crosses 100000. */
    @Test
    void billionLaughsFailsAtItsFirstFewLevels() {
        StringBuilder yaml = new StringBuilder("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i <= 30; i++) {
            yaml.append("l").append(i).append(": &l").append(i).append(" [");
            for (int j = 0; j < 10; j++) {
                yaml.append(j == 0 ? "" : ", ").append("*l").append(i - 1);
            }
            yaml.append("]\n");
        }
        String message = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> error(yaml.toString()));
        assertEquals("t.yaml:5:45: l4[7]: the aliases expand to more than 100000 values, which looks like an alias"
                + " bomb; write the values out instead", message);
    }

    @Test
    void aliasCannotNestBeyondTheDepthLimit() {
        String deep = "a: &a " + "[".repeat(40) + "]".repeat(40) + "\nb: " + "[".repeat(30) + "*a" + "]".repeat(30)
                + "\n";
        assertEquals("t.yaml:2:34: b" + "[0]".repeat(30) + ": lists and mappings nested more than 64 levels deep;"
                + " a resilience.yaml needs far fewer", error(deep));
    }

    @Test
    void duplicateKeyNamesBothPlaces() {
        assertEquals("t.yaml:3:3: a.k: duplicate key 'k': first at line 2, column 3, again at line 3, column 3; keep"
                + " only one", error("a:\n  k: 1\n  k: 2\n"));
    }

    @Test
    void forbiddenCharacterIsLocated() {
        assertEquals("t.yaml:2:5: the character U+0007 is not allowed in YAML; remove it", error("a: 1\nb: x\u0007\n"));
    }

    @Test
    void notUtf8IsLocated() {
        byte[] bytes = {'a', ':', ' ', '1', '\n', 'b', ':', ' ', (byte) 0xc3, (byte) 0xa9, (byte) 0xff, '\n'};
        assertEquals("t.yaml:2:5: the file is not valid UTF-8: byte 0xff cannot be decoded here; save the file as"
                + " UTF-8", assertThrows(ConfigException.class, () -> YamlReader.read(FILE, bytes)).getMessage());
    }

    @Test
    void tooLarge() {
        byte[] bytes = new byte[YamlReader.MAX_BYTES + 10];
        assertEquals("t.yaml: the file is 4194314 bytes; the limit is 4 MiB",
                assertThrows(ConfigException.class, () -> YamlReader.read(FILE, bytes)).getMessage());
    }

    @Test
    void customTagsAreRefused() {
        assertEquals("t.yaml:1:4: a: the tag '!secret' is not supported; remove it (only !!str, !!map and !!seq are"
                + " accepted)", error("a: !secret x\n"));
        assertEquals("t.yaml:1:4: a: the tag '!!set' is not supported; remove it (only !!str, !!map and !!seq are"
                + " accepted)", error("a: !!set {x: null}\n"));
    }

    @Test
    void complexKeysAreRefused() {
        assertEquals("t.yaml:1:3: not valid here: a key must be a plain text, not a list or a mapping",
                error("? [a]\n: b\n"));
    }

    @Test
    void secondDocumentIsRefused() {
        assertEquals("t.yaml:3:1: only one YAML document is allowed; remove the second '---' and what follows it",
                error("a: 1\n---\nb: 2\n"));
    }

    @Test
    void syntaxErrorKeepsTheParsersWordsAndPlace() {
        assertEquals("t.yaml:1:5: not valid YAML: mapping values are not allowed here",
                error("a: b: c\n"));
    }
}
