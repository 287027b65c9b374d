package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStream;
import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.StreamCutFault;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.transport.ToolCallSchema;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class BedrockStreamsTest {

    static final JsonNode ANSWER = Json.readTree("""
            {"output": {"message": {"role": "assistant", "content": [
                 {"text": "Looking the order up now, one moment please."},
                 {"toolUse": {"toolUseId": "tooluse_1", "name": "lookup_order", "input": {"order_id": "A-17"}}}]}},
             "stopReason": "tool_use",
             "usage": {"inputTokens": 12, "outputTokens": 9, "totalTokens": 21},
             "metrics": {"latencyMs": 310}}""");

    static final JsonNode REQUEST = Json.readTree("""
            {"modelId": "anthropic.claude-3-haiku-20240307-v1:0", "stream": true,
             "messages": [{"role": "user", "content": [{"text": "A-17?"}]}],
             "toolConfig": {"tools": [{"toolSpec": {"name": "lookup_order", "inputSchema": {"json": {
                 "type": "object", "required": ["order_id"], "properties": {"order_id": {"type": "string"}}}}}}]}}""");

    private static List<String> names(List<StreamEvent> events) {
        return events.stream().map(StreamEvent::event).toList();
    }

    @Test
    void aConverseAnswerIsSentAsTheEventsOfAConverseStream() {
        List<StreamEvent> events = BedrockStreams.of(ANSWER, 40);
        assertEquals(List.of("messageStart", "contentBlockDelta", "contentBlockDelta", "contentBlockDelta",
                "contentBlockStop", "contentBlockStart", "contentBlockDelta", "contentBlockDelta", "contentBlockStop",
                "messageStop", "metadata"), names(events), "text and tool input in pieces");
        assertEquals("{\"role\":\"assistant\"}", events.get(0).data());
        assertEquals("{\"contentBlockIndex\":0,\"delta\":{\"text\":\"" + ChunkStreams.pieces(
                "Looking the order up now, one moment please.").get(0) + "\"}}", events.get(1).data(),
                "each piece with its block's index");
        assertEquals("{\"contentBlockIndex\":0}", events.get(4).data());
        assertEquals("{\"contentBlockIndex\":1,\"start\":{\"toolUse\":{\"toolUseId\":\"tooluse_1\","
                + "\"name\":\"lookup_order\"}}}", events.get(5).data());
        StringBuilder input = new StringBuilder();
        for (StreamEvent e : events.subList(6, 8)) {
            assertEquals(1, Json.readTree(e.data()).path("contentBlockIndex").asInt());
            input.append(Json.readTree(e.data()).path("delta").path("toolUse").path("input").asString());
        }
        assertEquals("{\"order_id\":\"A-17\"}", input.toString(), "the tool's input as string fragments of its JSON");
        assertEquals("{\"stopReason\":\"tool_use\"}", events.get(9).data());
        assertEquals("{\"usage\":{\"inputTokens\":12,\"outputTokens\":9,\"totalTokens\":21},"
                + "\"metrics\":{\"latencyMs\":310}}", events.get(10).data());
        assertTrue(events.stream().allMatch(e -> e.atMs() == 40));
        assertEquals("Looking the order up now, one moment please.", StreamReplay.text(events));
    }

    @Test
    void theEventsAddUpToTheAnswerAgain() throws Exception {
        StreamRecording.Captured captured = StreamRecording.assemble(BedrockStreams.of(ANSWER, 40));
        assertEquals(ANSWER, captured.completion());
        assertEquals(40L, captured.firstTokenMs());
        assertNull(new ToolCallSchema().problem(REQUEST, captured.completion()), "the assembled input is checked");
    }

    @Test
    void eachEventIsAFrameNamingItsTypeAndTheFramesReadBackAsTheEvents() throws Exception {
        List<StreamEvent> events = BedrockStreams.of(ANSWER, 0);
        EventStreamFrames.Frame f = EventStreamFrames.readAll(BedrockStreams.frame(events.get(1))).get(0);
        assertEquals(java.util.Map.of(":event-type", "contentBlockDelta", ":content-type", "application/json",
                ":message-type", "event"), f.headers());
        assertEquals(events.get(1).data(), f.text());
        AtomicLong clock = new AtomicLong();
        List<StreamEvent> read = BedrockStreams.read(new ByteArrayInputStream(BedrockStreams.frames(events)),
                () -> clock.addAndGet(5));
        assertEquals(names(events), names(read));
        assertEquals(events.stream().map(StreamEvent::data).toList(), read.stream().map(StreamEvent::data).toList());
        assertEquals(5, read.get(0).atMs(), "each event stamped as its frame was read");
        assertEquals(55, read.get(10).atMs());
    }

    @Test
    void anExceptionIsAFrameOfMessageTypeException() throws Exception {
        StreamEvent e = BedrockStreams.errorEvent(StreamErrorFault.Event.THROTTLING_EXCEPTION, "slow down", 7);
        assertEquals(new StreamEvent(7, "throttlingException", "{\"message\":\"slow down\"}"), e);
        EventStreamFrames.Frame f = EventStreamFrames.readAll(BedrockStreams.frame(e)).get(0);
        assertEquals(java.util.Map.of(":exception-type", "throttlingException", ":content-type",
                "application/json", ":message-type", "exception"), f.headers());
        StreamEvent model = BedrockStreams.errorEvent(null, "failed", 7);
        assertEquals("modelStreamErrorException", model.event(), "Bedrock's usual in-stream error");
        assertEquals("{\"message\":\"failed\",\"originalStatusCode\":529,\"originalMessage\":\"Overloaded\"}",
                model.data());
        List<StreamEvent> read = BedrockStreams.read(new ByteArrayInputStream(BedrockStreams.frame(model)), () -> 3);
        assertEquals(List.of(new StreamEvent(3, "modelStreamErrorException", model.data())), read);
    }

    @Test
    void recordingRefusesAStreamThatReportedAnException() {
        List<StreamEvent> events = new java.util.ArrayList<>(BedrockStreams.of(ANSWER, 0).subList(0, 3));
        events.add(BedrockStreams.errorEvent(StreamErrorFault.Event.THROTTLING_EXCEPTION, "Too many tokens", 0));
        StreamRecording.Broken e = assertThrows(StreamRecording.Broken.class, () -> StreamRecording.assemble(events));
        assertEquals("the stream reported an error: throttlingException {\"message\":\"Too many tokens\"}",
                e.getMessage());
    }

    @Test
    void aStreamWithoutItsMetadataEndedEarly() {
        List<StreamEvent> events = BedrockStreams.of(ANSWER, 0);
        StreamRecording.Broken e = assertThrows(StreamRecording.Broken.class,
                () -> StreamRecording.assemble(events.subList(0, events.size() - 1)));
        assertTrue(e.endedEarly());
    }

    @Test
    void aStreamErrorFaultEndsTheStreamWithTheExceptionItNames() {
        CassetteStream recorded = new CassetteStream(BedrockStreams.of(ANSWER, 40));
        StreamReplay throttled = StreamReplay.of(new StreamErrorFault(3,
                StreamErrorFault.Event.THROTTLING_EXCEPTION), ApiShape.BEDROCK, recorded, ANSWER, 40, REQUEST, "fp");
        assertEquals(List.of("messageStart", "contentBlockDelta", "contentBlockDelta", "throttlingException"),
                names(throttled.events()));
        assertTrue(throttled.broken());
        StreamReplay usual = StreamReplay.of(new StreamErrorFault(1), ApiShape.BEDROCK, recorded, ANSWER, 40,
                REQUEST, "fp");
        assertEquals("modelStreamErrorException", usual.events().get(1).event());
        StreamReplay anthropic = StreamReplay.of(new StreamErrorFault(1, StreamErrorFault.Event.OVERLOADED_ERROR),
                ApiShape.BEDROCK, recorded, ANSWER, 40, REQUEST, "fp");
        assertEquals("modelStreamErrorException", anthropic.events().get(1).event(),
                "a name Bedrock has no event for is its usual one");
        StreamReplay onMessages = StreamReplay.of(new StreamErrorFault(1,
                StreamErrorFault.Event.THROTTLING_EXCEPTION), ApiShape.MESSAGES, null, Json.readTree(
                "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}],"
                        + "\"stop_reason\":\"end_turn\"}"), 0, null, "fp");
        assertEquals("error", onMessages.events().get(1).event(), "and Bedrock's names are Messages' usual error");
    }

    @Test
    void replayedFramesAreTheRecordedEventsWithTheCutAndTheSlowFirstToken() throws Exception {
        CassetteStream recorded = new CassetteStream(BedrockStreams.of(ANSWER, 40));
        StreamReplay clean = StreamReplay.of(NoFault.INSTANCE, ApiShape.BEDROCK, recorded, ANSWER, 40, REQUEST, "fp");
        assertEquals(recorded.events(), clean.events(), "Bedrock's events need no identifier put back");
        List<EventStreamFrames.Frame> frames = EventStreamFrames.readAll(clean.wire(ApiShape.BEDROCK));
        assertEquals(11, frames.size());
        assertEquals("metadata", frames.get(10).header(":event-type"));
        assertEquals(EventStreamFrames.CONTENT_TYPE, StreamReplay.contentType(ApiShape.BEDROCK));
        assertEquals("text/event-stream", StreamReplay.contentType(ApiShape.MESSAGES));
        StreamReplay cut = StreamReplay.of(new StreamCutFault(2), ApiShape.BEDROCK, recorded, ANSWER, 40, REQUEST,
                "fp");
        assertEquals(StreamReplay.Ending.CUT, cut.ending());
        assertEquals(2, EventStreamFrames.readAll(cut.wire(ApiShape.BEDROCK)).size());
        StreamReplay slow = StreamReplay.of(new SlowFirstTokenFault(3500), ApiShape.BEDROCK, recorded, ANSWER, 40,
                REQUEST, "fp");
        assertEquals(3500, slow.events().get(0).atMs());
    }

    @Test
    void aBrokenToolCallBreaksTheStreamedInputAndTheCheckSeesIt() throws Exception {
        StreamReplay broken = StreamReplay.of(BadToolCallFault.INSTANCE, ApiShape.BEDROCK,
                new CassetteStream(BedrockStreams.of(ANSWER, 40)), ANSWER, 40, REQUEST, "fp");
        StringBuilder input = new StringBuilder();
        for (StreamEvent e : broken.events()) {
            JsonNode d = Json.readTree(e.data()).path("delta").path("toolUse").path("input");
            if (d.isString()) {
                input.append(d.asString());
            }
        }
        assertTrue(input.toString().startsWith("{\"order_i"), input.toString());
        assertThrows(tools.jackson.core.JacksonException.class, () -> Json.readTree(input.toString()),
                "the input fragments add up to JSON cut off: " + input);
        JsonNode assembled = StreamRecording.assemble(broken.events()).completion();
        assertTrue(assembled.path("output").path("message").path("content").get(1).path("toolUse").path("input")
                .isString(), "the assembled input stays the broken string");
        assertTrue(new ToolCallSchema().problem(REQUEST, assembled) != null);
    }

    @Test
    void anSseStreamWithAnEventNamedLikeOneOfBedrocksIsNotTakenForAConverseStream() throws Exception {
        List<StreamEvent> chat = List.of(
                new StreamEvent(0, "metadata", "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":"
                        + "{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}"),
                new StreamEvent(0, "[DONE]"));
        JsonNode assembled = StreamRecording.assemble(chat).completion();
        assertEquals("chat.completion", assembled.path("object").asString());
        assertEquals("Hi", assembled.at("/choices/0/message/content").asString());
    }

    @Test
    void reasoningIsStreamedAsItsDeltasAndKeptWithItsSignature() throws Exception {
        JsonNode answer = Json.readTree("""
                {"output": {"message": {"role": "assistant", "content": [
                     {"reasoningContent": {"reasoningText": {"text": "The user wants a plan first.", "signature": "sig"}}},
                     {"text": "Plan: tests, then code."}]}},
                 "stopReason": "end_turn", "usage": {"inputTokens": 5, "outputTokens": 9, "totalTokens": 14},
                 "metrics": {"latencyMs": 80}}""");
        List<StreamEvent> events = BedrockStreams.of(answer, 0);
        assertEquals("Plan: tests, then code.", StreamReplay.text(events), "reasoning is not the answer's text");
        assertEquals(answer, StreamRecording.assemble(events).completion());
    }

    @net.jqwik.api.Property(tries = 100)
    void anyTextAndToolInputSurviveTheSplitIntoEventsAndTheAssemblyBack(
            @net.jqwik.api.ForAll @net.jqwik.api.constraints.StringLength(max = 200) String text,
            @net.jqwik.api.ForAll @net.jqwik.api.constraints.StringLength(max = 100) String path) throws Exception {
        tools.jackson.databind.node.ObjectNode answer = (tools.jackson.databind.node.ObjectNode) ANSWER.deepCopy();
        tools.jackson.databind.node.ArrayNode content = (tools.jackson.databind.node.ArrayNode) answer
                .at("/output/message/content");
        ((tools.jackson.databind.node.ObjectNode) content.get(0)).put("text", text);
        ((tools.jackson.databind.node.ObjectNode) content.get(1).get("toolUse").get("input")).put("order_id", path);
        List<StreamEvent> events = BedrockStreams.of(answer, 0);
        JsonNode framed = StreamRecording.assemble(BedrockStreams.read(new ByteArrayInputStream(
                BedrockStreams.frames(events)), () -> 0)).completion();
        assertEquals(answer, framed);
    }
}
