package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.fault.StreamErrorFault.Event;
import dev.resilienceharness.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The provider's own in-stream error events, as a {@code stream_error} that names one replays them. */
class StreamReplayTest {

    private static final String MESSAGE = "{\"id\":\"msg_7\",\"type\":\"message\",\"role\":\"assistant\",\"model\":"
            + "\"claude-sonnet-4-5\",\"content\":[{\"type\":\"text\",\"text\":\"Read the logs, then patch it.\"}],"
            + "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":9,\"output_tokens\":7}}";

    private static final String CHAT = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1767225600,"
            + "\"model\":\"gpt-4.1-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
            + "\"Read the logs, then patch it.\"},\"finish_reason\":\"stop\"}]}";

    @Test
    void aMessagesStreamSendsTheNamedErrorTypeAfterTheTextThatArrived() {
        StreamReplay overloaded = messages(new StreamErrorFault(4, Event.OVERLOADED_ERROR));
        StreamEvent error = overloaded.events().get(4);
        assertEquals("error", error.event());
        JsonNode data = Json.readTree(error.data());
        assertEquals("error", data.path("type").asString());
        assertEquals("overloaded_error", data.path("error").path("type").asString());
        assertEquals(5, overloaded.events().size(), "the error event ends the stream");
        assertEquals(4, overloaded.strikes());
        assertTrue(overloaded.broken());
        assertTrue(!StreamReplay.text(overloaded.events()).isEmpty(), "text had arrived before it");

        StreamEvent apiError = messages(new StreamErrorFault(4, Event.API_ERROR)).events().get(4);
        assertEquals("api_error", Json.readTree(apiError.data()).path("error").path("type").asString());
        assertEquals("overloaded_error", Json.readTree(messages(new StreamErrorFault(4)).events().get(4).data())
                .path("error").path("type").asString(), "the API's usual in-stream error when none is named");
        assertEquals("overloaded_error", Json.readTree(messages(new StreamErrorFault(4, Event.RESPONSE_FAILED))
                .events().get(4).data()).path("error").path("type").asString(),
                "Messages has no response.failed: its usual error event instead");
    }

    @Test
    void aResponsesStreamEndsWithResponseFailedCarryingTheResponseAndItsError() {
        StreamReplay replay = StreamReplay.of(new StreamErrorFault(5, Event.RESPONSE_FAILED), ApiShape.RESPONSES,
                null, Json.readTree(ResponseStreamsTest.RESPONSE), 0, Json.readTree(ResponseStreamsTest.REQUEST),
                "f00d");
        assertEquals(6, replay.events().size());
        StreamEvent failed = replay.events().get(5);
        assertEquals("response.failed", failed.event());
        JsonNode data = Json.readTree(failed.data());
        assertEquals("response.failed", data.path("type").asString());
        assertEquals(5, data.path("sequence_number").asInt(), "the next number in the stream");
        JsonNode response = data.get("response");
        assertEquals("resp_1", response.path("id").asString(), "the response the stream was building");
        assertEquals("failed", response.path("status").asString());
        assertEquals("server_error", response.path("error").path("code").asString());
        assertTrue(response.path("error").path("message").asString().contains("stream_error"), response.toString());
        assertEquals(0, response.path("output").size());
        assertEquals("Read the logs, t", StreamReplay.text(replay.events()), "one text delta came before it");

        StreamEvent usual = StreamReplay.of(new StreamErrorFault(5, Event.OVERLOADED_ERROR), ApiShape.RESPONSES, null,
                Json.readTree(ResponseStreamsTest.RESPONSE), 0, Json.readTree(ResponseStreamsTest.REQUEST), "f00d")
                .events().get(5);
        assertEquals("error", usual.event(), "Responses has no overloaded_error: its flat error event instead");
        assertEquals("server_error", Json.readTree(usual.data()).path("code").asString());
    }

    @Test
    void aChatCompletionsStreamHasOneErrorFormWhicheverIsNamed() {
        for (Event named : Event.values()) {
            StreamReplay replay = StreamReplay.of(new StreamErrorFault(2, named), ApiShape.CHAT_COMPLETIONS, null,
                    Json.readTree(CHAT), 0, Json.readTree("{\"stream\":true}"), "f00d");
            StreamEvent error = replay.events().get(2);
            assertEquals(null, error.event(), "a plain data chunk");
            JsonNode data = Json.readTree(error.data());
            assertEquals("server_error", data.path("error").path("type").asString(), named.toString());
            assertTrue(data.path("error").path("message").asString().contains("stream_error"), data.toString());
        }
    }

    @Test
    void aGeminiStreamSendsGooglesErrorChunkWithTheNamedStatusAfterTheChunksThatArrived() {
        java.util.Map<Event, String> named = new java.util.LinkedHashMap<>();
        named.put(Event.RESOURCE_EXHAUSTED, "429 RESOURCE_EXHAUSTED");
        named.put(Event.INTERNAL, "500 INTERNAL");
        named.put(Event.UNAVAILABLE, "503 UNAVAILABLE");
        named.put(null, "503 UNAVAILABLE");
        named.put(Event.OVERLOADED_ERROR, "503 UNAVAILABLE");
        named.put(Event.RESPONSE_FAILED, "503 UNAVAILABLE");
        named.forEach((event, expected) -> {
            StreamReplay replay = StreamReplay.of(new StreamErrorFault(1, event), ApiShape.GEMINI, null,
                    GeminiStreamsTest.ANSWER, 0, Json.readTree("{\"stream\":true}"), "f00d");
            assertEquals(2, replay.events().size(), "the error chunk ends the stream: " + event);
            StreamEvent chunk = replay.events().get(1);
            assertEquals(null, chunk.event(), "Gemini's chunks are plain data");
            JsonNode error = Json.readTree(chunk.data()).path("error");
            assertEquals(expected, error.path("code").asInt() + " " + error.path("status").asString(),
                    event == null || event.yamlName().equals(event.yamlName().toUpperCase(java.util.Locale.ROOT))
                            ? "its own status" : "Gemini has no " + event.yamlName() + ": its usual error chunk");
            assertTrue(error.path("message").asString().contains("stream_error"), error.toString());
            assertTrue(!StreamReplay.text(replay.events()).isEmpty(), "text had arrived before it");
            assertTrue(replay.broken());
        });
        for (Event gemini : java.util.List.of(Event.RESOURCE_EXHAUSTED, Event.INTERNAL, Event.UNAVAILABLE)) {
            assertEquals("overloaded_error", Json.readTree(messages(new StreamErrorFault(4, gemini)).events().get(4)
                    .data()).path("error").path("type").asString(), "Messages has no " + gemini + ": its usual one");
        }
    }

    @Test
    void recordingRefusesEachOfTheseStreamsForAnswersAreRecordedWholeAndTheErrorInjectedOnReplay() {
        for (ApiShape shape : ApiShape.values()) {
            JsonNode body = shape == ApiShape.GEMINI ? GeminiStreamsTest.ANSWER
                    : shape == ApiShape.BEDROCK ? BedrockStreamsTest.ANSWER : Json.readTree(
                    shape == ApiShape.MESSAGES ? MESSAGE : shape == ApiShape.RESPONSES ? ResponseStreamsTest.RESPONSE
                            : CHAT);
            for (Event named : Event.values()) {
                StreamReplay replay = StreamReplay.of(new StreamErrorFault(3, named), shape, null,
                        body, 0, Json.readTree("{\"stream\":true}"), "f00d");
                StreamRecording.Broken refused = org.junit.jupiter.api.Assertions.assertThrows(
                        StreamRecording.Broken.class, () -> StreamRecording.assemble(replay.events()),
                        shape + " " + named);
                assertTrue(!refused.endedEarly(), "refused for its error, not as a cut: " + refused.getMessage());
            }
        }
    }

    private static StreamReplay messages(StreamErrorFault fault) {
        return StreamReplay.of(fault, ApiShape.MESSAGES, null, Json.readTree(MESSAGE), 0,
                Json.readTree("{\"stream\":true}"), "f00d");
    }
}
