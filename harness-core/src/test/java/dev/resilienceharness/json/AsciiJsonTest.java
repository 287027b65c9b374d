package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

class AsciiJsonTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void escapesTheAsciiRangeAsPythonDoes() {
        // Python: json.dumps(chr(c)) for c in range(128)
        for (char c = 0; c < 128; c++) {
            String expected = switch (c) {
                case '"' -> "\\\"";
                case '\\' -> "\\\\";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                case '\b' -> "\\b";
                case '\f' -> "\\f";
                default -> c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c);
            };
            assertEquals('"' + expected + '"', string(String.valueOf(c)), "char " + (int) c);
        }
    }

    @Test
    void escapesEveryNonAsciiUnitInLowercaseHex() {
        assertEquals("\"caf\\u00e9 \\u2014 \\ud83d\\ude00 \\ufeff \\u00ff\"",
                string("caf\u00e9 \u2014 \ud83d\ude00 \ufeff \u00ff"));
        assertEquals("\"\\ud800x\"", string("\ud800x"));
        assertEquals("\"a/b</script>\"", string("a/b</script>"));
    }

    @Test
    void writesScalars() {
        assertEquals("12", scalar(NODES.numberNode((short) 12)));
        assertEquals("-7", scalar(NODES.numberNode(-7)));
        assertEquals("9223372036854775807", scalar(NODES.numberNode(Long.MAX_VALUE)));
        assertEquals("-12345678901234567890123", scalar(NODES.numberNode(new BigInteger("-12345678901234567890123"))));
        assertEquals("1e-05", scalar(NODES.numberNode(0.00001)));
        assertEquals("0.10000000149011612", scalar(NODES.numberNode(0.1f)));  // the float32 0.1, widened
        assertEquals("0.1", scalar(NODES.numberNode(new BigDecimal("0.1"))));
        assertEquals("5.0", scalar(NODES.numberNode(new BigDecimal("5"))));
        assertEquals("true", scalar(NODES.booleanNode(true)));
        assertEquals("false", scalar(NODES.booleanNode(false)));
        assertEquals("null", scalar(NODES.nullNode()));
        assertEquals("\"x\"", scalar(NODES.stringNode("x")));
    }

    @Test
    void refusesWhatJsonCannotHold() {
        assertThrows(IllegalArgumentException.class, () -> scalar(NODES.numberNode(Double.NaN)));
        assertThrows(IllegalArgumentException.class, () -> scalar(NODES.numberNode(Float.NEGATIVE_INFINITY)));
        assertThrows(IllegalArgumentException.class, () -> scalar(NODES.numberNode(new BigDecimal("1e400"))));
        assertThrows(IllegalArgumentException.class, () -> scalar(NODES.binaryNode(new byte[] {1})));
        assertThrows(IllegalArgumentException.class, () -> scalar(NODES.pojoNode(new Object())));
        assertThrows(IllegalArgumentException.class, () -> scalar(NODES.missingNode()));
    }

    private static String string(String s) {
        StringBuilder out = new StringBuilder();
        AsciiJson.appendString(s, out);
        return out.toString();
    }

    private static String scalar(JsonNode node) {
        StringBuilder out = new StringBuilder();
        AsciiJson.appendScalar(node, out);
        return out.toString();
    }
}
