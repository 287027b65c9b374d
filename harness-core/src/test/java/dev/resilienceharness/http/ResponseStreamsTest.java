package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.fault.TruncatedToolCallFault;
import dev.resilienceharness.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** A Responses answer streamed as the API sends it: named, numbered events that add up to the answer again. */
public class ResponseStreamsTest {

    /** A message and a function call, with usage. */
    public static final String RESPONSE = "{\"id\":\"resp_1\",\"object\":\"response\",\"created_at\":1767225600,"
            + "\"status\":\"completed\",\"model\":\"gpt-4.1-mini\",\"output\":[{\"type\":\"message\",\"id\":\"msg_1\","
            + "\"status\":\"completed\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":"
            + "\"Read the logs, then patch the null check.\",\"annotations\":[]}]},{\"type\":\"function_call\","
            + "\"id\":\"fc_1\",\"call_id\":\"call_1\",\"name\":\"edit\",\"arguments\":"
            + "\"{\\\"path\\\":\\\"src/Main.java\\\",\\\"line\\\":12}\",\"status\":\"completed\"}],"
            + "\"usage\":{\"input_tokens\":9,\"output_tokens\":14,\"total_tokens\":23}}";

    static final String REQUEST = "{\"model\":\"gpt-4.1-mini\",\"stream\":true,\"input\":\"plan the fix\","
            + "\"tools\":[{\"type\":\"function\",\"name\":\"edit\",\"parameters\":{\"type\":\"object\"}}]}";

    @Test
    void aResponseStreamsAsNamedNumberedEventsThatAddUpToItAgain() {
        List<StreamEvent> events = ResponseStreams.of(Json.readTree(RESPONSE), 120);
        assertEquals(List.of("response.created", "response.in_progress", "response.output_item.added",
                "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
                "response.output_text.delta", "response.output_text.done", "response.content_part.done",
                "response.output_item.done", "response.output_item.added", "response.function_call_arguments.delta",
                "response.function_call_arguments.delta", "response.function_call_arguments.delta",
                "response.function_call_arguments.done", "response.output_item.done", "response.completed"),
                events.stream().map(StreamEvent::event).toList());
        StringBuilder arguments = new StringBuilder();
        for (int i = 0; i < events.size(); i++) {
            JsonNode data = Json.readTree(events.get(i).data());
            assertEquals(events.get(i).event(), data.path("type").asString(), "the data's type is its name");
            assertEquals(i, data.path("sequence_number").asInt(-1), "numbered in order");
            assertEquals(120, events.get(i).atMs());
            if (data.path("type").asString().equals("response.function_call_arguments.delta")) {
                assertEquals("fc_1", data.path("item_id").asString());
                assertEquals(1, data.path("output_index").asInt());
                arguments.append(data.path("delta").asString());
            }
        }
        assertEquals("Read the logs, then patch the null check.", StreamReplay.text(events));
        assertEquals("{\"path\":\"src/Main.java\",\"line\":12}", arguments.toString());

        JsonNode created = Json.readTree(events.get(0).data()).get("response");
        assertEquals("in_progress", created.path("status").asString());
        assertEquals(0, created.path("output").size(), "the response starts without output");
        assertTrue(created.get("usage").isNull(), "and without usage");
        assertEquals("resp_1", created.path("id").asString());
        JsonNode added = Json.readTree(events.get(2).data()).get("item");
        assertEquals("in_progress", added.path("status").asString());
        assertEquals(0, added.path("content").size());
        JsonNode textDone = Json.readTree(events.get(7).data());
        assertEquals("Read the logs, then patch the null check.", textDone.path("text").asString());
        assertEquals("msg_1", textDone.path("item_id").asString());
        assertEquals("edit", Json.readTree(events.get(14).data()).path("name").asString());
        assertEquals(Json.readTree(RESPONSE), Json.readTree(events.get(events.size() - 1).data()).get("response"),
                "response.completed carries the whole response");
    }

    @Test
    void anIncompleteResponseEndsWithItsOwnEvent() {
        String incomplete = RESPONSE.replace("\"status\":\"completed\",\"model\"", "\"status\":\"incomplete\","
                + "\"model\"");
        List<StreamEvent> events = ResponseStreams.of(Json.readTree(incomplete), 0);
        assertEquals("response.incomplete", events.get(events.size() - 1).event());
    }

    @Test
    void aTruncatedToolCallStopsItsArgumentsMidJsonBeforeANormalEnd() {
        StreamReplay replay = StreamReplay.of(TruncatedToolCallFault.INSTANCE, ApiShape.RESPONSES, null,
                Json.readTree(RESPONSE), 300, Json.readTree(REQUEST), "f00d");
        List<StreamEvent> events = replay.events();
        assertEquals("response.completed", events.get(events.size() - 1).event(), "the stream ends normally");
        StringBuilder arguments = new StringBuilder();
        for (StreamEvent e : events) {
            if (e.event().equals("response.function_call_arguments.delta")) {
                arguments.append(Json.readTree(e.data()).path("delta").asString());
            }
        }
        assertTrue(arguments.length() > 0, events.toString());
        assertThrows(JacksonException.class, () -> Json.readTree(arguments.toString()),
                "the arguments stop mid-JSON: " + arguments);
        assertEquals(300, events.get(0).atMs(), "an answer recorded whole streams at its first-token time");
    }

    @Test
    void anErrorEventIsTheResponsesApisOwnNamedAndNumbered() {
        StreamReplay replay = StreamReplay.of(new StreamErrorFault(5), ApiShape.RESPONSES, null,
                Json.readTree(RESPONSE), 0, Json.readTree(REQUEST), "f00d");
        assertEquals(6, replay.events().size());
        assertEquals(5, replay.strikes());
        StreamEvent error = replay.events().get(5);
        assertEquals("error", error.event());
        JsonNode data = Json.readTree(error.data());
        assertEquals("error", data.path("type").asString());
        assertEquals("server_error", data.path("code").asString());
        assertEquals(5, data.path("sequence_number").asInt(), "the next number in the stream");
        assertTrue(data.path("message").asString().contains("stream_error"), data.toString());
        assertTrue(!data.has("error"), "flat, as the Responses API sends it: " + data);
        assertEquals("Read the logs, t", StreamReplay.text(replay.events()), "one text delta came before it");
    }

    @Test
    void aRecordedStreamIsReplayedAsRecorded() {
        List<StreamEvent> recorded = ResponseStreams.of(Json.readTree(RESPONSE), 0).stream()
                .map(e -> e.later(40)).toList();
        StreamReplay replay = StreamReplay.of(NoFault.INSTANCE, ApiShape.RESPONSES,
                new dev.resilienceharness.cassette.CassetteStream(recorded), Json.readTree(RESPONSE), 40,
                Json.readTree(REQUEST), "f00d");
        assertEquals(recorded, replay.events());
    }

    @Test
    void theEventsOfAStrippedRecordingGetTheResponsesIdentifiersBack() {
        JsonNode stripped = Json.readTree(RESPONSE.replace("\"id\":\"resp_1\",", ""));
        List<StreamEvent> recorded = ResponseStreams.of(stripped, 0);
        JsonNode answer = FaultAsHttp.answerable(ApiShape.RESPONSES, stripped, "f00d");
        StreamReplay replay = StreamReplay.of(NoFault.INSTANCE, ApiShape.RESPONSES,
                new dev.resilienceharness.cassette.CassetteStream(recorded), answer, 0, Json.readTree(REQUEST), "f00d");
        for (StreamEvent e : replay.events()) {
            JsonNode carried = Json.readTree(e.data()).get("response");
            if (carried != null) {
                assertEquals("resp_f00d", carried.path("id").asString(), e.event());
                assertEquals("response", carried.path("object").asString(), e.event());
            }
        }
        assertEquals("resp_f00d", answer.path("id").asString(), "as the whole answer has it");
        assertEquals(recorded.size(), replay.events().size());
    }
}
