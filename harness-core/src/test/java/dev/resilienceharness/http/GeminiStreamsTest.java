package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStream;
import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.StreamCutFault;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.fault.TruncatedToolCallFault;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.transport.ToolCallSchema;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class GeminiStreamsTest {

    static final JsonNode ANSWER = Json.readTree("""
            {"candidates": [{"content": {"role": "model", "parts": [
                 {"text": "Looking the order up now, one moment."},
                 {"functionCall": {"name": "lookup_order", "args": {"order_id": "A-17"}}}]},
               "finishReason": "STOP", "index": 0}],
             "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 9, "totalTokenCount": 21},
             "modelVersion": "gemini-2.5-flash", "responseId": "r-1"}""");

    private static final JsonNode REQUEST = Json.readTree("""
            {"model": "gemini-2.5-flash", "stream": true, "contents": [{"role": "user", "parts": [{"text": "A-17?"}]}],
             "tools": [{"functionDeclarations": [{"name": "lookup_order", "parameters": {"type": "OBJECT",
                 "required": ["order_id"], "properties": {"order_id": {"type": "STRING"}}}}]}]}""");

    @Test
    void textComesInPiecesTheCallWholeAndTheFinishAndUsageLast() {
        List<StreamEvent> events = GeminiStreams.of(ANSWER, 40);
        assertEquals(4, events.size(), "three pieces of 37 characters, then the call");
        JsonNode first = Json.readTree(events.get(0).data());
        assertEquals("Looking the orde", first.at("/candidates/0/content/parts/0/text").asString());
        assertEquals("gemini-2.5-flash", first.path("modelVersion").asString(), "every chunk names the model");
        assertTrue(first.at("/candidates/0/finishReason").isMissingNode());
        assertTrue(first.path("usageMetadata").isMissingNode());
        JsonNode last = Json.readTree(events.get(3).data());
        assertEquals("lookup_order", last.at("/candidates/0/content/parts/0/functionCall/name").asString());
        assertEquals("STOP", last.at("/candidates/0/finishReason").asString());
        assertEquals(21, last.at("/usageMetadata/totalTokenCount").asInt());
        assertTrue(events.stream().allMatch(e -> e.atMs() == 40 && e.event() == null), "Gemini's events are unnamed");
        assertEquals("Looking the order up now, one moment.", StreamReplay.text(events));
    }

    @Test
    void theChunksAddUpToTheAnswerAgain() throws Exception {
        StreamRecording.Captured captured = StreamRecording.assemble(GeminiStreams.of(ANSWER, 40));
        assertEquals(ANSWER, captured.completion());
        assertEquals(40L, captured.firstTokenMs());
    }

    @Test
    void aStreamErrorIsAChunkWithGooglesErrorJsonThatBreaksTheStream() {
        CassetteStream recorded = new CassetteStream(GeminiStreams.of(ANSWER, 40));
        StreamReplay replay = StreamReplay.of(new StreamErrorFault(2), ApiShape.GEMINI, recorded, ANSWER, 40,
                REQUEST, "f00d");
        assertEquals(3, replay.events().size());
        assertEquals(Json.readTree("{\"error\": {\"code\": 503, \"message\": \"injected stream_error fault: the"
                + " provider failed mid-stream\", \"status\": \"UNAVAILABLE\"}}"),
                Json.readTree(replay.events().get(2).data()));
        assertTrue(replay.broken());
        StreamRecording.Broken broken = assertThrows(StreamRecording.Broken.class,
                () -> StreamRecording.assemble(replay.events()));
        assertTrue(broken.getMessage().startsWith("the stream reported an error: "), broken.getMessage());
    }

    @Test
    void aCutStreamEndsBeforeAnyFinishReason() {
        StreamReplay replay = StreamReplay.of(new StreamCutFault(2), ApiShape.GEMINI,
                new CassetteStream(GeminiStreams.of(ANSWER, 40)), ANSWER, 40, REQUEST, "f00d");
        assertEquals(StreamReplay.Ending.CUT, replay.ending());
        StreamRecording.Broken broken = assertThrows(StreamRecording.Broken.class,
                () -> StreamRecording.assemble(replay.events()));
        assertTrue(broken.endedEarly());
    }

    @Test
    void aTruncatedToolCallIsStreamedAsArgsThatBreakTheSchema() throws Exception {
        StreamReplay replay = StreamReplay.of(TruncatedToolCallFault.INSTANCE, ApiShape.GEMINI, null, ANSWER, 40,
                REQUEST, "f00d");
        JsonNode assembled = StreamRecording.assemble(replay.events()).completion();
        String problem = new ToolCallSchema().problem(REQUEST, assembled);
        assertTrue(problem != null && problem.startsWith("candidates[0].content.parts[1].functionCall.args is not a"
                + " JSON object"), problem);
    }

    @Test
    void anAnswerRecordedWholeIsStreamedAsGeminiWouldHaveSplitIt() {
        StreamReplay replay = StreamReplay.of(NoFault.INSTANCE, ApiShape.GEMINI, null, ANSWER, 250, REQUEST, "f00d");
        assertEquals(GeminiStreams.of(ANSWER, 250), replay.events());
        String wire = new String(replay.wire(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(wire.startsWith("data: {\"candidates\":"), wire);
        assertTrue(!wire.contains("[DONE]"), "Gemini's stream ends when the connection closes");
    }

    @Property(tries = 200)
    void anyTextAndArgsSurviveTheSplitAndTheAssembly(@ForAll String text, @ForAll String arg) throws Exception {
        tools.jackson.databind.node.ObjectNode answer = (tools.jackson.databind.node.ObjectNode) ANSWER.deepCopy();
        var parts = (tools.jackson.databind.node.ArrayNode) answer.at("/candidates/0/content/parts");
        ((tools.jackson.databind.node.ObjectNode) parts.get(0)).put("text", text);
        ((tools.jackson.databind.node.ObjectNode) parts.get(1).get("functionCall").get("args")).put("order_id", arg);
        if (text.isEmpty()) {
            parts.remove(0); // an empty text part is no part a stream sends
        }
        assertEquals(answer, StreamRecording.assemble(GeminiStreams.of(answer, 0)).completion());
    }

    @Test
    void anythingButAResponseIsOneChunk() {
        assertEquals(List.of(new StreamEvent(5, "{\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}")),
                GeminiStreams.of(Json.readTree("{\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}"), 5));
    }
}
