package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class GeminiChunksTest {

    /** A stream as Gemini sends it with alt=sse: CRLF line ends, a thought, text, and usage on the last chunk. */
    private static final String STREAM = String.join("\r\n",
            "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Weighing it.\", \"thought\": true}],"
                    + " \"role\": \"model\"},\"index\": 0}],\"modelVersion\": \"gemini-2.5-pro\","
                    + "\"responseId\": \"abc\"}", "",
            "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"It is \"}],\"role\": \"model\"},"
                    + "\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 5},\"modelVersion\": \"gemini-2.5-pro\","
                    + "\"responseId\": \"abc\"}", "",
            "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"sunny.\"}],\"role\": \"model\"},"
                    + "\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 5,"
                    + "\"candidatesTokenCount\": 3,\"totalTokenCount\": 8},\"modelVersion\": \"gemini-2.5-pro\","
                    + "\"responseId\": \"abc\"}", "", "");

    @Test
    void aRecordedStreamIsAssembledIntoOneResponse() throws Exception {
        AtomicLong now = new AtomicLong();
        StreamRecording.Captured captured = StreamRecording.read(
                new ByteArrayInputStream(STREAM.getBytes(StandardCharsets.UTF_8)), () -> now.addAndGet(100));
        assertEquals(Json.readTree("""
                {"candidates": [{"content": {"parts": [{"text": "Weighing it.", "thought": true},
                                                       {"text": "It is sunny."}], "role": "model"},
                                 "finishReason": "STOP", "index": 0}],
                 "modelVersion": "gemini-2.5-pro", "responseId": "abc",
                 "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 3, "totalTokenCount": 8}}"""),
                captured.completion());
        assertEquals(3, captured.stream().events().size(), "every chunk is kept, to be replayed one by one");
        assertEquals(200L, captured.firstTokenMs(), "the first chunk (read at the clock's second tick, its blank"
                + " line) carries the first token");
    }

    @Test
    void theStreamIsDoneOnceEveryCandidateHasItsFinishReason() {
        GeminiChunks chunks = new GeminiChunks();
        chunks.apply(Json.readTree("{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"a\"}]}, \"index\": 0},"
                + " {\"content\": {\"parts\": [{\"text\": \"b\"}]}, \"index\": 1, \"finishReason\": \"STOP\"}]}"));
        assertFalse(chunks.done());
        assertTrue(chunks.apply(Json.readTree("{\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\":"
                + " {\"name\": \"f\", \"args\": {}}}]}, \"index\": 0, \"finishReason\": \"STOP\"}]}")),
                "a function call is a token");
        assertTrue(chunks.done());
        assertEquals(2, chunks.body().path("candidates").size());
    }

    @Test
    void onlyResponseChunksAreGeminis() {
        assertTrue(GeminiChunks.isGeminiChunk(Json.readTree("{\"candidates\": []}")));
        assertTrue(GeminiChunks.isGeminiChunk(Json.readTree("{\"usageMetadata\": {}}")));
        assertFalse(GeminiChunks.isGeminiChunk(Json.readTree("{\"choices\": [], \"usageMetadata\": {}}")));
        assertFalse(GeminiChunks.isGeminiChunk(Json.readTree("{\"type\": \"message_start\"}")));
    }
}
