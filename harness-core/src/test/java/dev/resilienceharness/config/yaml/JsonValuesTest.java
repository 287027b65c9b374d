package dev.resilienceharness.config.yaml;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.ConfigException;
import java.math.BigInteger;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class JsonValuesTest {

    private static final Path FILE = Path.of("j.yaml");
    private static final NodeReader R = new NodeReader(FILE);

    private static JsonNode json(String yaml) throws ConfigException {
        return JsonValues.value(R, YamlReader.read(FILE, yaml.getBytes(UTF_8)), "r");
    }

    @Test
    void mapsEachScalarType() throws Exception {
        JsonNode node = json("[text, '123', 7, 3000000000, 123456789012345678901234567890, 0.5, 1e3, true, null, '']");

        assertEquals("[\"text\",\"123\",7,3000000000,123456789012345678901234567890,0.5,1000.0,true,null,\"\"]",
                node.toString());
        assertTrue(node.get(1).isString());
        assertTrue(node.get(2).isInt());
        assertTrue(node.get(3).isLong());
        assertTrue(node.get(4).isBigInteger());
        assertEquals(new BigInteger("123456789012345678901234567890"), node.get(4).bigIntegerValue());
        assertTrue(node.get(5).isDouble());
        assertTrue(node.get(6).isDouble());
        assertTrue(node.get(7).isBoolean());
        assertTrue(node.get(8).isNull());
    }

    @Test
    void readsIntegersByTheirSize() throws Exception {
        JsonNode node = json("[5, -7, 999999999, -99999999, 2147483647, -2147483648, 2147483648, -0, +8, 007]");

        assertEquals("[5,-7,999999999,-99999999,2147483647,-2147483648,2147483648,0,\"+8\",\"007\"]",
                node.toString());
        for (int i = 0; i < 6; i++) {
            assertTrue(node.get(i).isInt(), node.get(i) + " is an int");
        }
        assertTrue(node.get(6).isLong());
        assertTrue(node.get(7).isInt());
        // YAML 1.2 reads a sign or a leading zero as text.
        assertTrue(node.get(8).isString());
        assertTrue(node.get(9).isString());
    }

    @Test
    void namesTheWholePathOfAValueDeepInside() {
        assertEquals("j.yaml:1:14: r.a[0].b[1]: expected a finite number (JSON has no NaN or infinity), got .nan",
                assertThrows(ConfigException.class, () -> json("{a: [{b: [1, .nan]}]}")).getMessage());
        assertEquals("j.yaml:1:2: r[0]: expected a finite number (JSON has no NaN or infinity), got .inf",
                assertThrows(ConfigException.class, () -> json("[.inf]")).getMessage());
    }

    @Test
    void keepsKeyOrderAndNesting() throws Exception {
        JsonNode node = json("""
                z: 1
                a:
                  - {role: user, content: hi}
                  - []
                m: {}
                """);
        assertEquals("{\"z\":1,\"a\":[{\"role\":\"user\",\"content\":\"hi\"},[]],\"m\":{}}", node.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {".inf", "-.inf", ".nan", "1e999"})
    void refusesNumbersJsonCannotHold(String text) {
        assertEquals("j.yaml:1:5: r.x: expected a finite number (JSON has no NaN or infinity), got " + text,
                assertThrows(ConfigException.class, () -> json("{x: " + text + "}")).getMessage());
    }

    @Test
    void refusesAbsurdlyLongIntegers() {
        assertEquals("j.yaml:1:2: r[0]: numbers too large: an integer here may have at most 1000 digits",
                assertThrows(ConfigException.class, () -> json("[" + "9".repeat(1001) + "]")).getMessage());
    }

    @Test
    void objectMustBeAMapping() throws Exception {
        ObjectNode ok = JsonValues.object(R, YamlReader.read(FILE, "{a: 1}".getBytes(UTF_8)), "r", "a request");
        assertEquals("{\"a\":1}", ok.toString());
        assertEquals("j.yaml:1:1: r: expected a request, got a list", assertThrows(ConfigException.class,
                () -> JsonValues.object(R, YamlReader.read(FILE, "[1]".getBytes(UTF_8)), "r", "a request"))
                .getMessage());
    }
}
