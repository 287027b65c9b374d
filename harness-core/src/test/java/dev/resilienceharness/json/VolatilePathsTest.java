package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class VolatilePathsTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final VolatilePaths SPEC_PATHS = VolatilePaths.of(List.of("response.id", "response.created",
            "response.system_fingerprint", "response.choices.*.message.tool_calls.*.id", "request.metadata.trace_id"));

    private static final String CASSETTE = """
            {"request": {"model": "m", "metadata": {"trace_id": "t-1", "user": "u"}},
             "response": {"id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600,
               "system_fingerprint": "fp_1", "model": "m",
               "choices": [
                 {"index": 0, "message": {"role": "assistant", "tool_calls": [
                   {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                   {"id": "call_2", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}},
                 {"index": 1, "message": {"role": "assistant", "content": "hi"}},
                 {"index": 2, "message": {"role": "assistant", "tool_calls": [{"id": "call_3", "type": "function"}]}}],
               "usage": {"total_tokens": 17}}}
            """;

    @Test
    void stripsTheSpecPathsAndNothingElse() {
        ObjectNode cassette = cassette();
        assertSame(cassette, SPEC_PATHS.strip(cassette));
        assertEquals(read("""
                {"request": {"model": "m", "metadata": {"user": "u"}},
                 "response": {"object": "chat.completion", "model": "m",
                   "choices": [
                     {"index": 0, "message": {"role": "assistant", "tool_calls": [
                       {"type": "function", "function": {"name": "f", "arguments": "{}"}},
                       {"type": "function", "function": {"name": "g", "arguments": "{}"}}]}},
                     {"index": 1, "message": {"role": "assistant", "content": "hi"}},
                     {"index": 2, "message": {"role": "assistant", "tool_calls": [{"type": "function"}]}}],
                   "usage": {"total_tokens": 17}}}
                """), cassette);
    }

    @Test
    void stripsRequestAndResponseSeparately() {
        ObjectNode cassette = cassette();
        ObjectNode request = (ObjectNode) cassette.get("request");
        assertSame(request, SPEC_PATHS.stripRequest(request));
        assertEquals(read("{\"model\": \"m\", \"metadata\": {\"user\": \"u\"}}"), request);
        assertTrue(cassette.get("response").has("id"), "stripRequest leaves the response alone");

        JsonNode response = cassette.get("response");
        assertSame(response, SPEC_PATHS.stripResponse(response));
        assertEquals(List.of(), SPEC_PATHS.remaining(cassette));
    }

    @Test
    void aRequestPathDoesNotReachIntoTheResponseNorTheOtherWayRound() {
        VolatilePaths paths = VolatilePaths.of(List.of("request.id", "response.op"));
        ObjectNode request = (ObjectNode) read("{\"id\": 1, \"op\": \"plan\"}");
        JsonNode response = read("{\"id\": 1, \"op\": \"plan\"}");
        assertEquals(read("{\"op\": \"plan\"}"), paths.stripRequest(request));
        assertEquals(read("{\"id\": 1}"), paths.stripResponse(response));
    }

    @Test
    void aStarMatchesEveryPropertyOfAnObject() {
        VolatilePaths paths = VolatilePaths.of(List.of("response.headers.*.date", "response.trace.*"));
        JsonNode response = read("""
                {"headers": {"a": {"date": 1, "keep": 2}, "b": {"date": 3}, "c": 4}, "trace": {"x": 1, "y": [2]},
                 "date": 5}""");
        assertEquals(read("{\"headers\": {\"a\": {\"keep\": 2}, \"b\": {}, \"c\": 4}, \"trace\": {}, \"date\": 5}"),
                paths.stripResponse(response));
    }

    @Test
    void aMatchedArrayElementBecomesNullSoItsNeighboursKeepTheirPlaces() {
        JsonNode response = read("{\"data\": [10, 11, 12, 13], \"more\": [1, 2], \"keep\": [1, 2]}");
        VolatilePaths paths = VolatilePaths.of(List.of("response.data.0", "response.data.2", "response.data.9",
                "response.more.*"));
        ObjectNode cassette = wrap(response);
        assertEquals(List.of("response.data[0]", "response.data[2]", "response.more[0]", "response.more[1]"),
                paths.remaining(cassette));
        assertEquals(read("{\"data\": [null, 11, null, 13], \"more\": [null, null], \"keep\": [1, 2]}"),
                paths.stripResponse(response));
        assertEquals(List.of(), paths.remaining(cassette));
        JsonNode once = response.deepCopy();
        assertEquals(once, paths.stripResponse(response), "stripping twice changes nothing more");
    }

    @Test
    void walksNestedArrays() {
        VolatilePaths paths = VolatilePaths.of(List.of("response.rows.*.*.id", "response.grid.1.0"));
        JsonNode response = read("""
                {"rows": [[{"id": 1, "v": 1}, {"id": 2}], [], [{"v": 3}, 4, [5]]],
                 "grid": [[1, 2], [3, 4], [5]]}""");
        assertEquals(List.of("response.rows[0][0].id", "response.rows[0][1].id", "response.grid[1][0]"),
                paths.remaining(wrap(response)));
        assertEquals(read("""
                {"rows": [[{"v": 1}, {}], [], [{"v": 3}, 4, [5]]], "grid": [[1, 2], [null, 4], [5]]}"""),
                paths.stripResponse(response));
    }

    @Test
    void aNumberAlsoNamesAnObjectKey() {
        VolatilePaths paths = VolatilePaths.of(List.of("response.by_index.0"));
        assertEquals(read("{\"by_index\": {\"1\": \"b\"}}"),
                paths.stripResponse(read("{\"by_index\": {\"0\": \"a\", \"1\": \"b\"}}")));
    }

    @Test
    void pathsThatMatchNothingChangeNothing() {
        VolatilePaths paths = VolatilePaths.of(List.of("response.missing.deeper", "response.choices.7.id",
                "response.model.id", "response.usage.*.x", "request.messages.0.name", "timing.total_ms"));
        ObjectNode cassette = cassette();
        ObjectNode before = cassette.deepCopy();
        assertEquals(before, paths.strip(cassette));
        assertEquals(List.of(), paths.remaining(cassette));
        assertEquals(before.get("response"), paths.randomizeResponse(cassette.get("response"), new Random(1)));
        assertEquals(NODES.stringNode("x"), paths.stripResponse(NODES.stringNode("x")));
    }

    @Test
    void namesTheVolatileFieldsStillPresent() {
        assertEquals(List.of("response.id", "response.created", "response.system_fingerprint",
                        "response.choices[0].message.tool_calls[0].id", "response.choices[0].message.tool_calls[1].id",
                        "response.choices[2].message.tool_calls[0].id", "request.metadata.trace_id"),
                SPEC_PATHS.remaining(cassette()));
    }

    @Test
    void quotesNamesThatAreNotPlainInRemaining() {
        VolatilePaths paths = VolatilePaths.of(List.of("response.*.id", "response.x.*"));
        ObjectNode cassette = wrap(read("{\"a.b\": {\"id\": 1}, \"\": {\"id\": 2}, \"x\": {\"caf\u00e9\": 3}}"));
        assertEquals(List.of("response[\"a.b\"].id", "response[\"\"].id", "response.x[\"caf\\u00e9\"]"),
                paths.remaining(cassette));
    }

    @Test
    void aNullValueCountsAsPresent() {
        assertEquals(List.of("response.id"), SPEC_PATHS.remaining(wrap(read("{\"id\": null}"))));
    }

    @Test
    void randomizingKeepsEachTypeAndChangesTheValues() {
        VolatilePaths paths = VolatilePaths.of(List.of("response.s", "response.i", "response.l", "response.big",
                "response.f", "response.b", "response.n", "response.o", "response.a", "response.list.*"));
        JsonNode response = read("""
                {"s": "abc", "i": 7, "l": 9000000000, "big": 123456789012345678901234567890, "f": 0.5, "b": true,
                 "n": null, "o": {"k": 1}, "a": [1], "list": ["x", 2, 2.5], "keep": "me"}""");
        JsonNode original = response.deepCopy();
        JsonNode randomized = paths.randomizeResponse(response, new Random(7));

        assertEquals(original, response, "the input is left alone");
        assertTrue(randomized.get("s").isString());
        assertTrue(randomized.get("i").isInt());
        assertTrue(randomized.get("l").isIntegralNumber());
        assertTrue(randomized.get("big").isIntegralNumber());
        assertTrue(randomized.get("f").isDouble());
        assertTrue(randomized.get("b").isBoolean());
        for (String other : List.of("n", "o", "a")) {
            assertTrue(randomized.get(other).isString(), other + " becomes a string");
        }
        assertTrue(randomized.get("list").get(0).isString());
        assertTrue(randomized.get("list").get(1).isInt());
        assertTrue(randomized.get("list").get(2).isDouble());
        for (String changed : List.of("s", "i", "l", "big", "f")) {
            assertNotEquals(original.get(changed), randomized.get(changed), changed);
        }
        for (int i = 0; i < 3; i++) {
            assertNotEquals(original.get("list").get(i), randomized.get("list").get(i));
        }
        assertEquals("me", randomized.get("keep").stringValue());
        assertEquals(paths.stripResponse(original.deepCopy()), paths.stripResponse(randomized.deepCopy()));
    }

    @Test
    void randomizingDependsOnlyOnTheRandomSource() {
        JsonNode response = cassette().get("response");
        assertEquals(SPEC_PATHS.randomizeResponse(response, new Random(3)),
                SPEC_PATHS.randomizeResponse(response, new Random(3)));
        assertNotEquals(SPEC_PATHS.randomizeResponse(response, new Random(3)),
                SPEC_PATHS.randomizeResponse(response, new Random(4)));
        Set<Boolean> seen = new HashSet<>();
        VolatilePaths flag = VolatilePaths.of(List.of("response.flag"));
        Random random = new Random(5);
        for (int i = 0; i < 20; i++) {
            seen.add(flag.randomizeResponse(read("{\"flag\": true}"), random).get("flag").booleanValue());
        }
        assertEquals(Set.of(true, false), seen);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "response..id", ".response.id", "response.id.", "response", "request"})
    void refusesMalformedPathsNamingThem(String path) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VolatilePaths.of(List.of("response.id", path)));
        assertTrue(path.isBlank() ? e.getMessage().contains("empty") : e.getMessage().contains("\"" + path + "\""),
                e.getMessage());
    }

    @Test
    void keepsThePathsAsGiven() {
        assertEquals(List.of("response.id", "response.created", "response.system_fingerprint",
                "response.choices.*.message.tool_calls.*.id", "request.metadata.trace_id"), SPEC_PATHS.paths());
    }

    @Property(tries = 300)
    void afterStrippingNothingRemainsAndRandomizedCopiesStripAlike(@ForAll("responses") JsonNode response,
            @ForAll("pathLists") List<String> pathList, @ForAll long seed) {
        VolatilePaths paths = VolatilePaths.of(pathList);
        JsonNode randomized = paths.randomizeResponse(response, new Random(seed));
        ObjectNode stripped = paths.strip(wrap(response.deepCopy()));
        assertEquals(List.of(), paths.remaining(stripped));
        assertEquals(stripped, paths.strip(stripped.deepCopy()), "stripping is idempotent");
        assertEquals(stripped, paths.strip(wrap(randomized)));
    }

    @Property(tries = 500)
    void copiesThatShareWhatNoPathReachesGiveWhatDeepCopiesGave(@ForAll("responses") JsonNode response,
            @ForAll("pathLists") List<String> pathList, @ForAll long seed) {
        VolatilePaths paths = VolatilePaths.of(pathList);
        JsonNode original = response.deepCopy();
        JsonNode stripped = paths.strippedResponse(response);
        assertEquals(paths.stripResponse(response.deepCopy()), stripped, "as stripping a deep copy");
        JsonNode randomized = paths.randomizeResponse(response, new Random(seed));
        assertEquals(original, response, "the input is left alone");
        assertEquals(stripped, paths.strippedResponse(randomized), "only volatile fields differ");
        assertEquals(paths.stripResponse(response.deepCopy()), stripped, "nor does a later copy change the first");
    }

    @Test
    void onlyTheWayToAVolatileFieldIsCopied() {
        JsonNode response = cassette().get("response");
        JsonNode randomized = SPEC_PATHS.randomizeResponse(response, new Random(1));
        assertSame(response.get("usage"), randomized.get("usage"), "no path reaches usage");
        assertSame(response.get("choices").get(0).get("message").get("tool_calls").get(0).get("function"),
                randomized.get("choices").get(0).get("message").get("tool_calls").get(0).get("function"));
        assertTrue(response.get("choices") != randomized.get("choices"), "the way to tool_calls[*].id is copied");
        assertNotEquals(response.get("choices"), randomized.get("choices"));
        JsonNode stripped = SPEC_PATHS.strippedResponse(response);
        assertSame(response.get("usage"), stripped.get("usage"));
        assertTrue(response.has("id") && !stripped.has("id"));
        assertSame(response, VolatilePaths.of(List.of("request.metadata.trace_id")).strippedResponse(response),
                "no response path: nothing to copy");
    }

    @Provide
    Arbitrary<List<String>> pathLists() {
        Arbitrary<String> segment = Arbitraries.of("a", "b", "*", "0", "1");
        return segment.list().ofMinSize(1).ofMaxSize(3).map(s -> "response." + String.join(".", s))
                .list().ofMinSize(1).ofMaxSize(3);
    }

    @Provide
    Arbitrary<JsonNode> responses() {
        return tree(3).filter(JsonNode::isContainer);
    }

    private Arbitrary<JsonNode> tree(int depth) {
        Arbitrary<JsonNode> leaf = Arbitraries.oneOf(Arbitraries.integers().between(-5, 5).map(NODES::numberNode),
                Arbitraries.of("x", "y").map(NODES::stringNode), Arbitraries.just(NODES.booleanNode(true)),
                Arbitraries.just(NODES.numberNode(0.5)), Arbitraries.just(NODES.nullNode()));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<JsonNode> child = Arbitraries.lazy(() -> tree(depth - 1));
        return Arbitraries.frequencyOf(
                Tuple.of(1, leaf),
                Tuple.of(2, child.list().ofMaxSize(3).map(elements -> {
                    ArrayNode array = NODES.arrayNode();
                    elements.forEach(array::add);
                    return (JsonNode) array;
                })),
                Tuple.of(2, Arbitraries.maps(Arbitraries.of("a", "b", "0", "c"), child).ofMaxSize(3).map(map -> {
                    ObjectNode object = NODES.objectNode();
                    map.forEach(object::set);
                    return (JsonNode) object;
                })));
    }

    private static ObjectNode cassette() {
        return (ObjectNode) read(CASSETTE);
    }

    private static ObjectNode wrap(JsonNode response) {
        ObjectNode cassette = NODES.objectNode();
        cassette.putObject("request").put("op", "x");
        cassette.set("response", response);
        return cassette;
    }

    private static JsonNode read(String json) {
        return Json.readTree(json);
    }
}
