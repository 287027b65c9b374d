package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

class JsonTest {

    @Test
    void sharesOneMapper() {
        assertSame(Json.mapper(), Json.mapper());
    }

    @Test
    void refusesADuplicateKeyAtAnyDepth() {
        JacksonException top = assertThrows(JacksonException.class, () -> read("{\"a\": 1, \"a\": 2}"));
        assertTrue(top.getMessage().contains("Duplicate Object property \"a\""), top.getMessage());
        assertThrows(JacksonException.class,
                () -> read("{\"response\": {\"choices\": [{\"id\": 1, \"id\": 1}]}}"));
        assertThrows(JacksonException.class, () -> Json.mapper().readTree("{\"a\": 1, \"a\": 1}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"NaN", "[Infinity]", "{\"x\": -Infinity}", "", "  \n", "{} {}", "[1] x", "{'a': 1}",
            "[1,]", "01", "{\"a\": \"tab\tinside\"}"})
    void refusesWhatPythonsJsonLoadsRefuses(String text) {
        assertThrows(JacksonException.class, () -> read(text));
        assertThrows(JacksonException.class, () -> Json.readTree(text));
    }

    @Test
    void readsNumbersAsPythonDoes() {
        JsonNode node = read("[1, -0, 2147483648, 9223372036854775808, 1.0, 1e5, -0.0, 1E-5, 0.1]");
        assertTrue(node.get(0).isInt());
        assertEquals(0, node.get(1).intValue());
        assertTrue(node.get(2).isLong());
        assertTrue(node.get(3).isBigInteger());
        assertEquals(new BigInteger("9223372036854775808"), node.get(3).bigIntegerValue());
        for (int i = 4; i < node.size(); i++) {
            assertTrue(node.get(i).isDouble(), node.get(i) + " is a double");
        }
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(node.get(6).doubleValue()));
        assertEquals("[1,0,2147483648,9223372036854775808,1.0,100000.0,-0.0,1e-05,0.1]",
                CanonicalJson.write(node));
    }

    @Test
    void readsIntegersAsLongAsPythonWould() {
        String digits = "9".repeat(4300);
        assertEquals(new BigInteger(digits), read("[" + digits + "]").get(0).bigIntegerValue());
        assertThrows(JacksonException.class, () -> read("[" + digits + "9]"));
    }

    @Test
    void readsUtf8AndEscapes() {
        JsonNode node = read("{\"caf\u00e9\": \"\\ud83d\\ude00 \u2014 \\ud800\"}");
        assertEquals("\ud83d\ude00 \u2014 \ud800", node.get("caf\u00e9").stringValue());
    }

    @Test
    void keepsKeyOrder() {
        JsonNode node = Json.readTree("{\"z\": 1, \"a\": 2, \"m\": 3}");
        assertEquals(List.of("z", "a", "m"), List.copyOf(node.propertyNames()));
    }

    /**
     * Where Jackson is stricter than Python: a property name with a lone surrogate escape. Python reads
     * {@code {"\ud800": 1}}; Jackson 3 refuses it. Real requests do not carry such keys.
     */
    @Test
    void refusesALoneSurrogateInAPropertyNameUnlikePython() {
        assertThrows(JacksonException.class, () -> read("{\"\\ud800\": 1}"));
        assertThrows(JacksonException.class, () -> read("{\"\\udfff\": 1}"));
    }

    @Test
    void printsPrettyThroughIndentedJson() {
        assertEquals("{\n  \"a\": [\n    1\n  ]\n}",
                Json.prettyPrint(JsonNodeFactory.instance.objectNode().set("a",
                        JsonNodeFactory.instance.arrayNode().add(1))));
    }

    private static JsonNode read(String text) {
        return Json.readTree(text.getBytes(StandardCharsets.UTF_8));
    }
}
