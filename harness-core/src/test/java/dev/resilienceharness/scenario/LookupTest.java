package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.testing.ToolOrders;
import dev.resilienceharness.transport.RepairRequest;
import dev.resilienceharness.transport.ToolCallSchema;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** How a {@code Transport} payload finds its op: by the identity of a declared request, by equality, by fingerprint. */
class LookupTest {

    private static final VolatilePaths VOLATILE = VolatilePaths.of(List.of("request.trace"));
    private static final Set<String> OPS = Set.of("a", "b", "c", "d", "e");

    @TempDir
    Path dir;

    private static ObjectNode request(String json) {
        return (ObjectNode) Json.readTree(json);
    }

    private OpExchange exchange(String op, ObjectNode request) {
        String fp = CassetteReader.fingerprint(request, VOLATILE);
        return new OpExchange(op, request, fp, dir.resolve(fp + ".json"));
    }

    @Test
    void findsEachPayloadAsEqualRequestsAlwaysHaveBeenFound() {
        OpExchange a = exchange("a", request("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}"));
        // b declares a request equal to a's, in a node of its own.
        OpExchange b = exchange("b", request("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}"));
        OpExchange c = exchange("c", request("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"y\"}]}"));
        // d and e differ only in a volatile path: one fingerprint, two requests.
        OpExchange d = exchange("d", request("{\"model\": \"m\", \"trace\": 1}"));
        OpExchange e = exchange("e", request("{\"model\": \"m\", \"trace\": 2}"));
        assertEquals(d.fingerprint(), e.fingerprint());
        Lookup lookup = new Lookup(List.of(a, b, c, d, e), new RecordedAnswers(new CassetteReader(dir, VOLATILE),
                new ToolCallSchema(), 16), VOLATILE, dir, null);

        // Equal requests answer as the last op declaring one, whether the node is a's own, b's or a copy.
        assertSame(b, lookup.forPayload(a.request(), 0, OPS, null));
        assertSame(b, lookup.forPayload(b.request(), 0, OPS, null));
        assertSame(b, lookup.forPayload(a.request().deepCopy(), 0, OPS, null));
        assertSame(c, lookup.forPayload(c.request(), 0, OPS, null));
        assertSame(c, lookup.forPayload(c.request().deepCopy(), 0, OPS, null));
        // An equal request wins over a shared fingerprint; a request equal to none gets the fingerprint's last op.
        assertSame(d, lookup.forPayload(d.request(), 0, OPS, null));
        assertSame(d, lookup.forPayload(d.request().deepCopy(), 0, OPS, null));
        assertSame(e, lookup.forPayload(e.request().deepCopy(), 0, OPS, null));
        assertSame(e, lookup.forPayload(request("{\"model\": \"m\", \"trace\": 3}"), 0, OPS, null));
        assertNull(lookup.forPayload(request("{\"model\": \"other\"}"), 0, OPS, null));
    }

    @Test
    void aRepairPayloadMadeOnceIsAnsweredAsAFreshOneIs() throws Exception {
        OpExchange a = exchange("a", request("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}"));
        String before = a.request().toString();
        // The repair with the instruction "fix" was recorded in a cassette of its own (every repair n sends the same
        // request); with "amend" it was not.
        String ownFp = CassetteReader.fingerprint(RepairRequest.sent(RepairRequest.payload(a.request(), 1, "fix")),
                VOLATILE);
        java.nio.file.Files.writeString(dir.resolve(ownFp + ".json"), "{}");
        Lookup lookup = new Lookup(List.of(a), new RecordedAnswers(new CassetteReader(dir, VOLATILE),
                new ToolCallSchema(), 16), VOLATILE, dir, null);

        ObjectNode first = lookup.repairTemplate("a", a.request(), 1, "fix");
        assertSame(first, lookup.repairTemplate("a", a.request(), 1, "fix"));
        assertEquals(RepairRequest.payload(a.request(), 1, "fix"), first);
        assertEquals(before, a.request().toString());
        for (int call = 0; call < 2; call++) {
            OpExchange own = lookup.forPayload(first, 1, OPS, "fix");
            assertEquals(ownFp, own.fingerprint());
            assertEquals(dir.resolve(ownFp + ".json"), own.file());
            assertSame(own, lookup.forPayload(RepairRequest.payload(a.request(), 1, "fix"), 1, OPS, "fix"));
        }
        ObjectNode second = lookup.repairTemplate("a", a.request(), 2, "fix");
        assertEquals(ownFp, lookup.forPayload(second, 2, OPS, "fix").fingerprint());
        ObjectNode amend = lookup.repairTemplate("a", a.request(), 1, "amend");
        assertSame(a, lookup.forPayload(amend, 1, OPS, "amend"));
        assertSame(a, lookup.forPayload(amend, 1, OPS, "amend"));
        // Asked under another instruction, the payload made for "fix" is looked up as a fresh copy of it would be.
        assertEquals(lookup.forPayload(RepairRequest.payload(a.request(), 1, "fix"), 1, OPS, "other"),
                lookup.forPayload(first, 1, OPS, "other"));

        // Past the bound the payloads are made afresh, and one handed out before still finds its cassette.
        for (int n = 3; n < Lookup.REPAIR_TEMPLATES + 5; n++) {
            lookup.repairTemplate("a", a.request(), n, "fix");
        }
        assertEquals(ownFp, lookup.forPayload(first, 1, OPS, "fix").fingerprint());
        ObjectNode again = lookup.repairTemplate("a", a.request(), 1, "fix");
        assertEquals(first, again);
        assertEquals(ownFp, lookup.forPayload(again, 1, OPS, "fix").fingerprint());
    }

    @Test
    void aPayloadOrRepairWhoseToolsCameInAnotherOrderFindsTheDeclaredOpAndTheRepairsOwnCassette() throws Exception {
        ToolOrders.Shape shape = ToolOrders.Shape.CHAT_COMPLETIONS;
        OpExchange a = exchange("a", shape.request("x", shape.tools(3)));
        OpExchange c = exchange("c", request("{\"model\": \"m\"}"));
        CassetteStore store = CassetteStore.replaying(dir, VOLATILE);
        store.write(a.request(), request("{\"answer\": \"a\"}"), null);
        store.write(c.request(), request("{\"answer\": \"c\"}"), null);
        Cassette ownRepair = store.write(RepairRequest.sent(RepairRequest.payload(a.request(), 1, "fix")),
                request("{\"answer\": \"repaired\"}"), null);

        // Sent as declared, and a repair answered by the op's own cassette: nothing needs another order.
        Lookup exact = new Lookup(List.of(a, c), new RecordedAnswers(new CassetteReader(dir, VOLATILE),
                new ToolCallSchema(), 16), VOLATILE, dir, null);
        assertSame(a, exact.forPayload(a.request().deepCopy(), 0, OPS, null));
        assertSame(a, exact.forPayload(RepairRequest.payload(a.request(), 1, "amend"), 1, OPS, "amend"));
        assertNull(exact.forPayload(request("{\"model\": \"other\"}"), 0, OPS, null));
        assertEquals(false, exact.toolOrderIndexed());

        Lookup lookup = new Lookup(List.of(a, c), new RecordedAnswers(new CassetteReader(dir, VOLATILE),
                new ToolCallSchema(), 16), VOLATILE, dir, null);
        for (List<JsonNode> order : ToolOrders.permutations(ToolOrders.toolsOf(a.request()))) {
            ObjectNode payload = ToolOrders.withTools(a.request(), order);
            assertSame(a, lookup.forPayload(payload, 0, OPS, null), order.toString());
            OpExchange repair = lookup.forPayload(RepairRequest.payload(payload, 1, "fix"), 1, OPS, "fix");
            assertEquals(ownRepair.fingerprint(), repair.fingerprint(), "the repair's own cassette, in any order");
            assertEquals(ownRepair.file(), repair.file());
            assertEquals("a", repair.op());
            assertSame(a, lookup.forPayload(RepairRequest.payload(payload, 1, "amend"), 1, OPS, "amend"));
        }
        assertEquals(true, lookup.toolOrderIndexed());
        // Other differences still count.
        assertNull(lookup.forPayload(ToolOrders.withTools(shape.request("y", List.of()),
                ToolOrders.toolsOf(a.request())), 0, OPS, null));
    }
}
