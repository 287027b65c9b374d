package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.transport.ToolCallSchema;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
}
