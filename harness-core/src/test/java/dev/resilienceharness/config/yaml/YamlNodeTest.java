package dev.resilienceharness.config.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class YamlNodeTest {

    private static YamlNode.Scalar scalar(String text, YamlNode.ScalarType type) {
        return new YamlNode.Scalar(text, type, 1, 1);
    }

    @Test
    void describesEachKindForMessages() {
        assertEquals("the text 'fast'", scalar("fast", YamlNode.ScalarType.STRING).describe());
        assertEquals("the number 3", scalar("3", YamlNode.ScalarType.INTEGER).describe());
        assertEquals("the number 0.25", scalar("0.25", YamlNode.ScalarType.FLOAT).describe());
        assertEquals("the boolean true", scalar("true", YamlNode.ScalarType.BOOLEAN).describe());
        assertEquals("nothing (null)", scalar("", YamlNode.ScalarType.NULL).describe());
        assertEquals("an empty list", new YamlNode.Sequence(List.of(), 1, 1).describe());
        assertEquals("a list", new YamlNode.Sequence(List.of(scalar("a", YamlNode.ScalarType.STRING)), 1, 1)
                .describe());
        assertEquals("an empty mapping", new YamlNode.Mapping(List.of(), 1, 1).describe());
    }

    @Test
    void longTextIsShortenedWithoutSplittingASurrogatePair() {
        assertEquals("x".repeat(60) + "...", YamlNode.abbreviate("x".repeat(61)));
        String emoji = "x".repeat(59) + "\uD83D\uDE00" + "tail";
        assertEquals("x".repeat(59) + "...", YamlNode.abbreviate(emoji));
        assertEquals("short", YamlNode.abbreviate("short"));
    }

    @Test
    void weightAndHeightCountTheExpandedTree() {
        YamlNode.Scalar a = scalar("a", YamlNode.ScalarType.STRING);
        YamlNode.Sequence inner = new YamlNode.Sequence(List.of(a, a), 1, 1);
        YamlNode.Mapping outer = new YamlNode.Mapping(List.of(new YamlNode.Entry("x", 1, 1, inner),
                new YamlNode.Entry("y", 2, 1, inner)), 1, 1);

        assertEquals(0, a.height());
        assertEquals(1, inner.height());
        assertEquals(2, outer.height());
        assertEquals(3, inner.weight());
        assertEquals(7, outer.weight());
    }

    @Test
    void weightSaturatesInsteadOfOverflowing() {
        YamlNode node = scalar("a", YamlNode.ScalarType.STRING);
        for (int i = 0; i < 80; i++) {
            node = new YamlNode.Sequence(List.of(node, node), 1, 1);
        }
        assertEquals(Long.MAX_VALUE, node.weight());
    }

    @Test
    void mappingLooksUpByKey() {
        YamlNode.Scalar v = scalar("v", YamlNode.ScalarType.STRING);
        YamlNode.Mapping m = new YamlNode.Mapping(List.of(new YamlNode.Entry("k", 3, 5, v)), 3, 5);
        assertEquals(v, m.get("k"));
        assertNull(m.get("x"));
        assertEquals(5, m.entry("k").column());
    }
}
