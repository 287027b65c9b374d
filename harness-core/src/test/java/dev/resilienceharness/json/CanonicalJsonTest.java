package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Besides {@code vectors/fingerprints.json} (docs cassettes.md), {@code json/canonical-docs.tsv} holds 2,000 random documents
 * made by a seeded Python 3.11 script: nested objects and arrays whose keys and strings mix ASCII, control
 * chars, quotes, DEL, Latin-1, U+D7FF, U+E000..U+FFFF, astral chars (U+1F600, U+10FFFD) and lone surrogates,
 * with small, 64-bit and 40-digit integers, floats of every kind, booleans and nulls. Each line is
 * {@code fingerprint TAB input TAB canonical}: the input is {@code json.dumps(doc)} (keys in insertion order,
 * half of them with {@code ensure_ascii=False}), canonical is {@code json.dumps(doc, sort_keys=True,
 * separators=(",", ":"))} and fingerprint is {@code sha256(canonical.encode()).hexdigest()[:16]}.
 */
class CanonicalJsonTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void matchesEverySpecVector() {
        JsonNode cases = Json.readTree(TestData.bytes("/vectors/fingerprints.json"));
        assertEquals(14, cases.size());
        for (JsonNode c : cases) {
            assertEquals(c.get("canonical").stringValue(), CanonicalJson.write(c.get("request")));
        }
    }

    @Test
    void matchesPythonOnTheGeneratedDocuments() {
        List<String> lines = TestData.lines("/json/canonical-docs.tsv");
        assertEquals(2000, lines.size());
        List<String> wrong = new ArrayList<>();
        for (String line : lines) {
            String[] columns = line.split("\t", -1);
            String ours = CanonicalJson.write(Json.readTree(columns[1]));
            if (!ours.equals(columns[2])) {
                wrong.add(columns[1] + "\n  expected " + columns[2] + "\n  got      " + ours);
            }
        }
        assertEquals(List.of(), wrong.subList(0, Math.min(5, wrong.size())), wrong.size() + " differ");
    }

    @Test
    void sortsKeysByCodePointAtEveryLevel() {
        ObjectNode inner = NODES.objectNode().put("\ud83d\ude00", 1).put("\uffff", 2).put("b", 3).put("B", 4);
        ObjectNode outer = NODES.objectNode();
        outer.set("z", NODES.arrayNode().add(inner).add(NODES.objectNode()));
        outer.put("a", "x");
        assertEquals("{\"a\":\"x\",\"z\":[{\"B\":4,\"b\":3,\"\\uffff\":2,\"\\ud83d\\ude00\":1},{}]}",
                CanonicalJson.write(outer));
    }

    @Test
    void writesEveryKindOfNumber() {
        ArrayNode numbers = NODES.arrayNode()
                .add((short) 1).add(-2).add(Long.MIN_VALUE).add(new BigInteger("123456789012345678901234567890"))
                .add(0.5f).add(-0.0).add(1e16).add(new BigDecimal("0.00001"));
        assertEquals("[1,-2,-9223372036854775808,123456789012345678901234567890,0.5,-0.0,1e+16,1e-05]",
                CanonicalJson.write(numbers));
    }

    @Test
    void writesTopLevelScalars() {
        assertEquals("\"caf\\u00e9\"", CanonicalJson.write(NODES.stringNode("caf\u00e9")));
        assertEquals("null", CanonicalJson.write(NODES.nullNode()));
        assertEquals("100.0", CanonicalJson.write(NODES.numberNode(100.0)));
    }

    @Test
    void appendsToAGivenBuilder() {
        StringBuilder out = new StringBuilder("x=");
        CanonicalJson.write(NODES.objectNode().put("b", true).put("a", false), out);
        assertEquals("x={\"a\":false,\"b\":true}", out.toString());
    }

    @Test
    void refusesNanAndInfinitiesAnywhere() {
        ObjectNode node = NODES.objectNode();
        node.set("deep", NODES.arrayNode().add(1).add(Double.POSITIVE_INFINITY));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CanonicalJson.write(node));
        assertEquals("NaN and infinities have no JSON form", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CanonicalJson.write(NODES.numberNode(Float.NaN)));
    }

    @Property(tries = 500)
    void readsBackAsTheSameTree(@ForAll("trees") JsonNode tree) {
        JsonNode back = Json.readTree(CanonicalJson.write(tree));
        assertTrue(tree.equals(SAME_NUMBER, back), () -> tree + " came back as " + back);
    }

    @Property(tries = 500)
    void ordersKeysByCodePoint(@ForAll("objects") ObjectNode object) {
        JsonNode back = Json.readTree(CanonicalJson.write(object));
        List<String> keys = new ArrayList<>(back.propertyNames());
        assertEquals(object.size(), keys.size());
        for (int i = 1; i < keys.size(); i++) {
            int[] previous = keys.get(i - 1).codePoints().toArray();
            int[] next = keys.get(i).codePoints().toArray();
            assertTrue(Arrays.compare(previous, next) < 0, keys.get(i - 1) + " before " + keys.get(i));
        }
    }

    @Property(tries = 200)
    void isTheSameWhateverTheInsertionOrder(@ForAll("objects") ObjectNode object) {
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(object.properties());
        Collections.reverse(entries);
        ObjectNode reversed = NODES.objectNode();
        entries.forEach(e -> reversed.set(e.getKey(), e.getValue()));
        assertEquals(CanonicalJson.write(object), CanonicalJson.write(reversed));
    }

    @Property(tries = 500)
    void sameTextIsWhetherTheTextsAreEqual(@ForAll("trees") JsonNode a, @ForAll("trees") JsonNode b) {
        assertEquals(CanonicalJson.write(a).equals(CanonicalJson.write(b)), CanonicalJson.sameText(a, b));
    }

    @Property(tries = 300)
    void aTreeHasTheSameTextAsItsReadBackAndNotAsAChangedCopy(@ForAll("trees") JsonNode tree) {
        JsonNode back = Json.readTree(CanonicalJson.write(tree));
        assertTrue(CanonicalJson.sameText(tree, back), () -> tree + " vs " + back);
        ArrayNode longer = NODES.arrayNode().add(tree).add(tree);
        ArrayNode changed = NODES.arrayNode().add(back).add(NODES.arrayNode().add(back));
        assertEquals(false, CanonicalJson.sameText(longer, changed));
    }

    @Test
    void sameTextComparesNumbersAsTheirPrintedForm() {
        assertTrue(CanonicalJson.sameText(NODES.numberNode(5), NODES.numberNode(5L)));
        assertTrue(CanonicalJson.sameText(NODES.numberNode(5L), NODES.numberNode(BigInteger.valueOf(5))));
        assertTrue(CanonicalJson.sameText(NODES.numberNode(0.1), NODES.numberNode(new BigDecimal("0.1"))));
        assertTrue(CanonicalJson.sameText(NODES.numberNode(1.5f), NODES.numberNode(1.5)));
        assertEquals(false, CanonicalJson.sameText(NODES.numberNode(1), NODES.numberNode(1.0)));
        assertEquals(false, CanonicalJson.sameText(NODES.numberNode(0.0), NODES.numberNode(-0.0)));
        assertEquals(false, CanonicalJson.sameText(NODES.stringNode("1"), NODES.numberNode(1)));
        assertEquals(false, CanonicalJson.sameText(NODES.nullNode(), NODES.stringNode("null")));
    }

    @Test
    void sameTextRefusesWhatWriteRefusesEvenWhenTheValuesDifferEarlier() {
        ArrayNode bad = NODES.arrayNode().add(1).add(Double.NaN);
        ArrayNode good = NODES.arrayNode().add(2).add(3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CanonicalJson.sameText(good, bad));
        assertEquals("NaN and infinities have no JSON form", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CanonicalJson.sameText(bad, good));
        assertThrows(IllegalArgumentException.class,
                () -> CanonicalJson.sameText(good, NODES.arrayNode().add(NODES.pojoNode(new Object()))));
    }

    /** Numbers compare by value within their kind, since Jackson reads 5 back as an int even if it was a long. */
    private static final Comparator<JsonNode> SAME_NUMBER = (a, b) -> {
        if (a.isIntegralNumber() && b.isIntegralNumber()) {
            return a.bigIntegerValue().compareTo(b.bigIntegerValue());
        }
        if (a.isFloatingPointNumber() && b.isFloatingPointNumber()) {
            return Long.compare(Double.doubleToRawLongBits(a.doubleValue()),
                    Double.doubleToRawLongBits(b.doubleValue()));
        }
        return a.equals(b) ? 0 : 1;
    };

    @Provide
    Arbitrary<JsonNode> trees() {
        return tree(3);
    }

    @Provide
    Arbitrary<ObjectNode> objects() {
        return Arbitraries.maps(keys(), scalars()).ofMaxSize(8).map(CanonicalJsonTest::object);
    }

    private Arbitrary<JsonNode> tree(int depth) {
        if (depth == 0) {
            return scalars();
        }
        Arbitrary<JsonNode> child = Arbitraries.lazy(() -> tree(depth - 1));
        return Arbitraries.frequencyOf(
                Tuple.of(3, scalars()),
                Tuple.of(1, child.list().ofMaxSize(4).map(CanonicalJsonTest::array)),
                Tuple.of(1, Arbitraries.maps(keys(), child).ofMaxSize(4).map(CanonicalJsonTest::object)));
    }

    /** Keys Jackson reads back: no lone surrogates (it refuses them in names; see JsonTest). */
    private static Arbitrary<String> keys() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars('a', 'B', '\u00e9', '\ue000', '\uffff', '\ud83d', '\ude00', '\ud800')
                        .ofMaxLength(4),
                Arbitraries.strings().all().ofMaxLength(5))
                .filter(CanonicalJsonTest::wellFormed);
    }

    private static boolean wellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    private static Arbitrary<JsonNode> scalars() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(8).map(NODES::stringNode),
                Arbitraries.integers().map(NODES::numberNode),
                Arbitraries.longs().map(NODES::numberNode),
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(30).negate(), BigInteger.TEN.pow(30))
                        .map(NODES::numberNode),
                Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite).map(NODES::numberNode),
                Arbitraries.doubles().map(NODES::numberNode),
                Arbitraries.of(true, false).map(NODES::booleanNode),
                Arbitraries.just(NODES.nullNode()));
    }

    private static JsonNode array(List<JsonNode> elements) {
        ArrayNode array = NODES.arrayNode();
        elements.forEach(array::add);
        return array;
    }

    private static ObjectNode object(Map<String, JsonNode> properties) {
        ObjectNode object = NODES.objectNode();
        properties.forEach(object::set);
        return object;
    }
}
