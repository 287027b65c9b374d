package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class CassetteStreamTest {

    private static final VolatilePaths DEFAULTS = VolatilePaths.of(List.of("response.id", "response.created",
            "response.system_fingerprint"));

    @Test
    void writtenAndReadBackAsTheSameEvents() {
        CassetteStream s = new CassetteStream(List.of(new StreamEvent(180, "{\"a\":1}"),
                new StreamEvent(200, "message_stop", "{}"), new StreamEvent(950, "[DONE]")));
        assertEquals("{\"events\":[{\"at_ms\":180,\"data\":\"{\\\"a\\\":1}\"},{\"at_ms\":200,\"event\":\"message_stop\","
                + "\"data\":\"{}\"},{\"at_ms\":950,\"data\":\"[DONE]\"}]}", Json.compact(s.toJson()));
        assertEquals(s, CassetteStream.fromJson(s.toJson()));
        assertEquals(180, s.firstEventMs());
        assertNull(CassetteStream.fromJson(null));
    }

    @Test
    void eventsOutOfOrderAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new CassetteStream(List.of(new StreamEvent(5, "x"),
                new StreamEvent(4, "y"))));
        assertThrows(IllegalArgumentException.class, () -> new StreamEvent(-1, "x"));
    }

    @Test
    void volatileResponsePathsApplyInsideEveryChunk() {
        ObjectNode cassette = (ObjectNode) Json.readTree("{\"request\":{},\"response\":{},\"stream\":{\"events\":["
                + "{\"at_ms\":1,\"data\":\"{\\\"id\\\":\\\"chatcmpl-9\\\",\\\"created\\\":5,\\\"model\\\":\\\"m\\\"}\"},"
                + "{\"at_ms\":2,\"data\":\"[DONE]\"}]}}");
        assertEquals(List.of("stream.events[0].data.id", "stream.events[0].data.created"),
                CassetteStream.remainingVolatile(cassette, DEFAULTS));
        CassetteStream.stripVolatile(cassette, DEFAULTS);
        assertEquals("{\"model\":\"m\"}", cassette.get("stream").get("events").get(0).get("data").asString());
        assertEquals("[DONE]", cassette.get("stream").get("events").get(1).get("data").asString());
        assertEquals(List.of(), CassetteStream.remainingVolatile(cassette, DEFAULTS));
    }

    @Test
    void volatileResponsePathsApplyToTheResponseAResponsesEventCarries() {
        ObjectNode cassette = (ObjectNode) Json.readTree("{\"request\":{},\"response\":{},\"stream\":{\"events\":["
                + "{\"at_ms\":1,\"event\":\"response.created\",\"data\":\"{\\\"type\\\":\\\"response.created\\\","
                + "\\\"response\\\":{\\\"id\\\":\\\"resp_9\\\",\\\"status\\\":\\\"in_progress\\\"},"
                + "\\\"sequence_number\\\":0}\"}]}}");
        assertEquals(List.of("stream.events[0].data.response.id"), CassetteStream.remainingVolatile(cassette, DEFAULTS));
        CassetteStream.stripVolatile(cassette, DEFAULTS);
        assertEquals("{\"type\":\"response.created\",\"response\":{\"status\":\"in_progress\"},\"sequence_number\":0}",
                cassette.get("stream").get("events").get(0).get("data").asString());
        assertEquals(List.of(), CassetteStream.remainingVolatile(cassette, DEFAULTS));
    }

    @Test
    void geminisResponseIdAndCreateTimeAreVolatileByDefaultInTheAnswerAndEveryChunk() {
        VolatilePaths defaults = VolatilePaths.of(dev.resilienceharness.config.ConfigLoader.DEFAULT_VOLATILE);
        ObjectNode cassette = (ObjectNode) Json.readTree("{\"request\":{},\"response\":{\"responseId\":\"r-1\","
                + "\"createTime\":\"2026-12-07T09:00:00Z\",\"modelVersion\":\"gemini-2.5-flash\"},\"stream\":{"
                + "\"events\":[{\"at_ms\":1,\"data\":\"{\\\"responseId\\\":\\\"r-1\\\",\\\"createTime\\\":"
                + "\\\"2026-12-07T09:00:00Z\\\",\\\"modelVersion\\\":\\\"gemini-2.5-flash\\\"}\"}]}}");
        assertEquals(List.of("response.responseId", "response.createTime", "stream.events[0].data.responseId",
                "stream.events[0].data.createTime"), with(defaults.remaining(cassette),
                CassetteStream.remainingVolatile(cassette, defaults)));
        defaults.strip(cassette);
        CassetteStream.stripVolatile(cassette, defaults);
        assertEquals("{\"modelVersion\":\"gemini-2.5-flash\"}", Json.compact(cassette.get("response")));
        assertEquals("{\"modelVersion\":\"gemini-2.5-flash\"}",
                cassette.get("stream").get("events").get(0).get("data").asString());
    }

    private static List<String> with(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    @Test
    void onlyJsonObjectsAreChunks() {
        assertNull(CassetteStream.chunk("[DONE]"));
        assertNull(CassetteStream.chunk("{broken"));
        assertEquals("m", CassetteStream.chunk(" {\"model\":\"m\"}").get("model").asString());
    }
}
