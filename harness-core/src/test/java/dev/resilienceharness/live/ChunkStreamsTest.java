package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.http.ChunkAssembler;
import dev.resilienceharness.http.ChunkStreams;
import dev.resilienceharness.json.Json;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ChunkStreamsTest {

    /** Compared as text: a parsed number may come back as another numeric node type. */
    static ObjectNode assemble(List<String> events) throws ChunkAssembler.BadChunk {
        ChunkAssembler a = new ChunkAssembler();
        for (String e : events) {
            a.accept("data: " + e);
            a.accept("");
        }
        a.finish();
        assertTrue(a.done());
        return a.completion();
    }

    @Test
    void aCompletionSurvivesTheRoundTripThroughChunks() throws Exception {
        ObjectNode completion = ProviderStub.completion("a reasonably long answer that needs several chunks");
        List<String> events = ChunkStreams.of(completion, true);
        assertEquals("[DONE]", events.get(events.size() - 1));
        assertTrue(events.size() > 4);
        assertEquals(Json.compact(completion), Json.compact(assemble(events)));
        assertEquals("chat.completion.chunk", Json.readTree(events.get(0)).get("object").asString());
    }

    @Test
    void toolCallsSurviveTheRoundTrip() throws Exception {
        ObjectNode completion = ProviderStub.toolCall("edit", "{\"path\": \"src/main/java/Main.java\", \"line\": 42}");
        assertEquals(Json.compact(completion), Json.compact(assemble(ChunkStreams.of(completion, true))));
    }

    @Test
    void usageIsStreamedOnlyWhenAskedFor() throws Exception {
        ObjectNode completion = ProviderStub.completion("hi");
        ObjectNode without = assemble(ChunkStreams.of(completion, false));
        assertTrue(without.get("usage") == null);
        completion.remove("usage");
        assertEquals(Json.compact(completion), Json.compact(without));
    }

    @Test
    void aBodyThatIsNoCompletionIsOneEvent() {
        JsonNode body = Json.readTree("{\"done\": \"plan\"}");
        assertEquals(List.of("{\"done\":\"plan\"}", "[DONE]"), ChunkStreams.of(body, false));
    }

    @Property(tries = 200)
    void piecesNeverSplitASurrogatePairAndJoinBack(@ForAll String text) {
        List<String> pieces = ChunkStreams.pieces(text);
        assertEquals(text, String.join("", pieces));
        for (String p : pieces) {
            assertTrue(p.length() <= ChunkStreams.PIECE + 1);
            assertTrue(p.isEmpty() || !Character.isLowSurrogate(p.charAt(0))
                    || text.indexOf(p) == 0, "a piece starts inside a pair: " + p);
        }
    }

    @Property(tries = 100)
    void anyContentRoundTrips(@ForAll String content) throws Exception {
        ObjectNode completion = ProviderStub.completion(content);
        assertEquals(Json.compact(completion), Json.compact(assemble(ChunkStreams.of(completion, true))));
    }
}
