package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.testing.ToolOrders;
import dev.resilienceharness.testing.ToolOrders.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The second look-up of a cassette store: a request whose own fingerprint names no file, answered by a cassette
 * recorded with its tools in another order, through {@link CassetteStore#find}, {@link CassetteStore#inAnyToolOrder}
 * and {@link CassetteStore#exchangeInAnyToolOrder}.
 */
class ToolOrderIndexTest {

    private static final VolatilePaths NONE = VolatilePaths.of(List.of());

    @TempDir
    Path dir;

    private static ObjectNode json(String text) {
        return (ObjectNode) Json.readTree(text);
    }

    private CassetteStore store(Mode mode) {
        return new CassetteStore(dir, NONE, mode, UnaryOperator.identity());
    }

    private List<Path> files() throws Exception {
        return CassetteStore.replaying(dir, NONE).files();
    }

    @Test
    void everyOrderOfTheToolsFindsTheRecordingInEachShape() throws Exception {
        CassetteStore writer = CassetteStore.replaying(dir, NONE);
        for (Shape shape : Shape.values()) {
            for (int n = 1; n <= ToolOrders.MAX_TOOLS; n++) {
                writer.write(shape.request("ask " + n, shape.tools(n)), shape.answer(shape + " " + n), null);
            }
        }
        CassetteStore store = CassetteStore.replaying(dir, NONE);
        for (Shape shape : Shape.values()) {
            for (int n = 1; n <= ToolOrders.MAX_TOOLS; n++) {
                String recorded = store.fingerprint(shape.request("ask " + n, shape.tools(n)));
                for (List<ObjectNode> order : ToolOrders.permutations(shape.tools(n))) {
                    Cassette c = store.find(shape.request("ask " + n, order));
                    assertEquals(recorded, c.fingerprint(), shape + " " + order);
                    assertEquals(shape + " " + n, shape.text(c.response()));
                }
            }
        }
        assertEquals(Shape.values().length * ToolOrders.MAX_TOOLS, files().size(), "nothing was written");
    }

    @Test
    void theIndexIsBuiltOnlyWhenARequestWithToolsToReorderMissesItsOwnFingerprint() throws Exception {
        ObjectNode recorded = Shape.CHAT_COMPLETIONS.request("ask", Shape.CHAT_COMPLETIONS.tools(3));
        CassetteStore.replaying(dir, NONE).write(recorded, Shape.CHAT_COMPLETIONS.answer("a"), null);
        CassetteStore store = CassetteStore.replaying(dir, NONE);

        assertEquals(store.fingerprint(recorded), store.find(recorded).fingerprint());
        assertFalse(store.toolOrderIndexed(), "a request in the recorded order takes the exact look-up only");
        assertNull(store.find(json("{\"model\": \"m\", \"messages\": []}")));
        assertNull(store.find(Shape.CHAT_COMPLETIONS.request("ask", Shape.CHAT_COMPLETIONS.tools(1))));
        assertFalse(store.toolOrderIndexed(), "a request with fewer than two tools has no other order");
        assertEquals(store.fingerprint(recorded), store.exchangeInAnyToolOrder("op", recorded, r -> {
            throw new AssertionError("replay calls no provider");
        }).fingerprint());
        assertFalse(store.toolOrderIndexed());

        List<JsonNode> reversed = ToolOrders.toolsOf(recorded);
        java.util.Collections.reverse(reversed);
        assertEquals(store.fingerprint(recorded), store.find(ToolOrders.withTools(recorded, reversed))
                .fingerprint());
        assertTrue(store.toolOrderIndexed());
    }

    @Test
    void ofTwoRecordingsThatDifferOnlyInToolOrderTheFileWhoseNameSortsFirstAnswers() throws Exception {
        Shape shape = Shape.MESSAGES;
        List<List<ObjectNode>> orders = ToolOrders.permutations(shape.tools(3));
        CassetteStore writer = CassetteStore.replaying(dir, NONE);
        List<String> names = new ArrayList<>();
        for (List<ObjectNode> order : orders.subList(0, 2)) {
            names.add(writer.write(shape.request("ask", order), shape.answer("in order " + order.get(1).get("name")),
                    null).file().getFileName().toString());
        }
        String first = names.stream().sorted().findFirst().orElseThrow();
        for (List<ObjectNode> order : orders.subList(2, orders.size())) {
            CassetteStore fresh = CassetteStore.replaying(dir, NONE);
            assertEquals(first, fresh.find(shape.request("ask", order)).file().getFileName().toString());
        }
        // Each recorded order still answers itself.
        for (int i = 0; i < 2; i++) {
            assertEquals(names.get(i), CassetteStore.replaying(dir, NONE).find(shape.request("ask", orders.get(i)))
                    .file().getFileName().toString());
        }
    }

    @Test
    void aCassetteWrittenAfterTheIndexIsFoundInAnyOrderToo() throws Exception {
        Shape shape = Shape.RESPONSES;
        CassetteStore store = store(Mode.RECORD_MISSING);
        ObjectNode other = shape.request("other", shape.tools(2));
        store.write(other, shape.answer("other"), null);
        List<JsonNode> swapped = List.of(other.get("tools").get(1), other.get("tools").get(0));
        store.find(ToolOrders.withTools(other, swapped));
        assertTrue(store.toolOrderIndexed());

        ObjectNode recorded = shape.request("ask", shape.tools(4));
        store.write(recorded, shape.answer("ask"), null);
        List<JsonNode> reversed = ToolOrders.toolsOf(recorded);
        java.util.Collections.reverse(reversed);
        assertEquals("ask", shape.text(store.find(ToolOrders.withTools(recorded, reversed)).response()));

        // Written by another store over the folder: known once that store's cassette is told.
        CassetteStore elsewhere = store(Mode.RECORD_MISSING);
        ObjectNode third = shape.request("third", shape.tools(3));
        Cassette written = elsewhere.write(third, shape.answer("third"), null);
        List<JsonNode> thirdReversed = ToolOrders.toolsOf(third);
        java.util.Collections.reverse(thirdReversed);
        assertNull(store.find(ToolOrders.withTools(third, thirdReversed)), "the index was built before it");
        store.written(written);
        assertEquals("third", shape.text(store.find(ToolOrders.withTools(third, thirdReversed)).response()));
    }

    @Test
    void recordMissingAnswersAReorderedRequestFromItsRecordingAndWritesNothing() throws Exception {
        Shape shape = Shape.CHAT_COMPLETIONS;
        ObjectNode recorded = shape.request("ask", shape.tools(5));
        store(Mode.RECORD_MISSING).write(recorded, shape.answer("recorded"), null);
        List<String> sent = new ArrayList<>();
        CassetteStore.LiveCall live = r -> {
            sent.add(r.toString());
            return new CassetteStore.Recorded(shape.answer("live"), null);
        };
        CassetteStore store = store(Mode.RECORD_MISSING);
        for (List<ObjectNode> order : ToolOrders.permutations(shape.tools(5))) {
            Cassette c = store.exchangeInAnyToolOrder("op", shape.request("ask", order), live);
            assertEquals("recorded", shape.text(c.response()));
        }
        assertEquals(List.of(), sent);
        assertEquals(1, files().size());

        // Replay answers it too; record records every request anew, as it always has.
        List<ObjectNode> reversed = new ArrayList<>(shape.tools(5));
        java.util.Collections.reverse(reversed);
        ObjectNode reorderedRequest = shape.request("ask", reversed);
        assertEquals("recorded", shape.text(store(Mode.REPLAY).exchangeInAnyToolOrder("op", reorderedRequest, live)
                .response()));
        assertEquals("live", shape.text(store(Mode.RECORD).exchangeInAnyToolOrder("op", reorderedRequest, live)
                .response()));
        assertEquals(1, sent.size());
        assertEquals(2, files().size());
    }

    @Test
    void theExactLookUpsKeepTheirMeaning() throws Exception {
        Shape shape = Shape.CHAT_COMPLETIONS;
        ObjectNode recorded = shape.request("ask", shape.tools(3));
        store(Mode.RECORD_MISSING).write(recorded, shape.answer("recorded"), null);
        List<JsonNode> reversed = ToolOrders.toolsOf(recorded);
        java.util.Collections.reverse(reversed);
        ObjectNode reordered = ToolOrders.withTools(recorded, reversed);
        CassetteStore store = store(Mode.RECORD_MISSING);

        // What a declared request maps to does not change: get, replay and exchange look for its own fingerprint.
        assertNull(store.get(store.fingerprint(reordered)));
        assertThrows(CassetteMiss.class, () -> CassetteStore.replaying(dir, NONE).replay("op", reordered));
        List<String> sent = new ArrayList<>();
        Cassette c = store.exchange("op", reordered, r -> {
            sent.add(r.toString());
            return new CassetteStore.Recorded(shape.answer("live"), null);
        });
        assertEquals(1, sent.size());
        assertEquals(store.fingerprint(reordered), c.fingerprint());
        assertEquals(2, files().size());
    }

    @Test
    void aMisnamedOrBrokenFileAnswersNothingInThisLookUpEither() throws Exception {
        Shape shape = Shape.MESSAGES;
        ObjectNode recorded = shape.request("ask", shape.tools(3));
        Cassette c = CassetteStore.replaying(dir, NONE).write(recorded, shape.answer("recorded"), null);
        Files.move(c.file(), dir.resolve("0000000000000000.json"));
        Files.writeString(dir.resolve("ffffffffffffffff.json"), "{\"request\": ");
        List<JsonNode> reversed = ToolOrders.toolsOf(recorded);
        java.util.Collections.reverse(reversed);
        CassetteStore store = CassetteStore.replaying(dir, NONE);
        assertNull(store.find(ToolOrders.withTools(recorded, reversed)));
        assertTrue(store.toolOrderIndexed());
    }

    @Test
    void aMissThatDiffersInToolOrderAndSomethingElseStillNamesTheNearestRecording() throws Exception {
        Shape shape = Shape.CHAT_COMPLETIONS;
        ObjectNode recorded = shape.request("plan the fix", shape.tools(2));
        CassetteStore.replaying(dir, NONE).write(recorded, shape.answer("recorded"), null);
        List<JsonNode> swapped = List.of(recorded.get("tools").get(1), recorded.get("tools").get(0));
        ObjectNode changed = ToolOrders.withTools(shape.request("plan the fox", List.of()), swapped);
        CassetteStore store = CassetteStore.replaying(dir, NONE);

        assertNull(store.find(changed));
        CassetteMiss miss = assertThrows(CassetteMiss.class, () -> store.exchangeInAnyToolOrder("plan", changed,
                r -> {
                    throw new AssertionError("replay calls no provider");
                }));
        assertEquals(store.fingerprint(recorded) + ".json", miss.nearestFile());
        assertTrue(miss.differingPaths().contains("messages[0].content"), miss.differingPaths().toString());
        assertTrue(miss.differingPaths().contains("tools[0].function.name"), miss.differingPaths().toString());
        assertEquals(store.miss("plan", store.fingerprint(changed), changed).getMessage(), miss.getMessage());
        assertTrue(miss.getMessage().startsWith("no cassette for op 'plan': looked for " + store.fingerprint(changed)
                + ".json; the nearest recorded request is " + store.fingerprint(recorded) + ".json, which differs at "
                + "messages[0].content, tools[0].function.name, "), miss.getMessage());
    }
}
