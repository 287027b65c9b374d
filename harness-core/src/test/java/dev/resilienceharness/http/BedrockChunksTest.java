package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.StreamCutFault;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.json.Json;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class BedrockChunksTest {

    private static final String ANSWER = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"model\":\"claude-x\",\"content\":[{\"type\":\"text\",\"text\":\"Allow a plus sign.\"}],"
            + "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":9,\"output_tokens\":5}}";

    private static List<StreamEvent> messages() {
        return MessageStreams.of(Json.readTree(ANSWER), 40);
    }

    @Test
    void onlyBedrocksStreamOfAnAnthropicModelIsChunked() {
        assertTrue(BedrockChunks.streams("model/anthropic.claude-sonnet-4-5-v1:0/invoke-with-response-stream"));
        assertTrue(BedrockChunks.streams("/model/us.anthropic.claude-x-v1%3A0/invoke-with-response-stream?x=1"));
        assertFalse(BedrockChunks.streams("model/anthropic.claude-x-v1:0/invoke"), "not a stream");
        assertFalse(BedrockChunks.streams("model/anthropic.claude-x-v1:0/converse-stream"), "ConverseStream's frames");
        assertFalse(BedrockChunks.streams("model/amazon.nova-lite-v1:0/invoke-with-response-stream"),
                "not Anthropic's Messages");
        assertFalse(BedrockChunks.streams("v1/messages"));
        assertFalse(BedrockChunks.streams(null));
    }

    @Test
    void eachEventIsAChunkFrameCarryingItsJsonInBase64AndReadsBackAsTheSameEvent() throws Exception {
        List<StreamEvent> events = messages();
        byte[] wire = BedrockChunks.frames(events);

        List<EventStreamFrames.Frame> frames = EventStreamFrames.readAll(wire);
        assertEquals(events.size(), frames.size());
        EventStreamFrames.Frame first = frames.get(0);
        assertEquals(Map.of(":event-type", "chunk", ":content-type", "application/json", ":message-type", "event"),
                first.headers());
        String carried = new String(Base64.getDecoder().decode(Json.readTree(first.text()).get("bytes").asString()),
                StandardCharsets.UTF_8);
        assertEquals(events.get(0).data(), carried);

        AtomicLong clock = new AtomicLong(7);
        List<StreamEvent> read = BedrockChunks.read(new ByteArrayInputStream(wire), clock::getAndIncrement);
        assertEquals(events.stream().map(StreamEvent::event).toList(), read.stream().map(StreamEvent::event).toList(),
                "each named by its type, as anthropic-java's backend names the event it writes");
        assertEquals(events.stream().map(StreamEvent::data).toList(), read.stream().map(StreamEvent::data).toList());
        assertEquals("Allow a plus sign.", StreamReplay.text(read));
        assertEquals(7, read.get(0).atMs(), "stamped as each frame was read");
    }

    @Test
    void anExceptionIsBedrocksExceptionFrameAndReadsBackByItsName() throws Exception {
        StreamEvent error = BedrockStreams.errorEvent(StreamErrorFault.Event.THROTTLING_EXCEPTION, "slow down", 5);
        byte[] wire = BedrockChunks.frame(error);

        EventStreamFrames.Frame frame = EventStreamFrames.readAll(wire).get(0);
        assertEquals("exception", frame.header(":message-type"));
        assertEquals("throttlingException", frame.header(":exception-type"));
        List<StreamEvent> read = BedrockChunks.read(new ByteArrayInputStream(wire), () -> 5);
        assertEquals("throttlingException", read.get(0).event());
        assertEquals("slow down", Json.readTree(read.get(0).data()).get("message").asString());
    }

    @Test
    void aChunkCarryingNoJsonEventIsABrokenFrame() {
        byte[] wire = EventStreamFrames.encode(Map.of(":event-type", "chunk", ":message-type", "event"),
                "{\"bytes\":\"bm90IGpzb24=\"}".getBytes(StandardCharsets.UTF_8));
        EventStreamFrames.BadFrame e = assertThrows(EventStreamFrames.BadFrame.class,
                () -> BedrockChunks.read(new ByteArrayInputStream(wire), () -> 0));
        assertTrue(e.getMessage().startsWith("a Bedrock chunk carries no Messages event: "), e.getMessage());
    }

    @Test
    void aStreamErrorIsBedrocksModelStreamErrorExceptionUnlessItNamesAnthropicsOwnError() {
        JsonNode answer = Json.readTree(ANSWER);
        StreamReplay usual = BedrockChunks.replay(StreamReplay.of(new StreamErrorFault(3), ApiShape.MESSAGES, null,
                answer, 40, null, "f"), new StreamErrorFault(3));
        assertEquals(4, usual.events().size());
        StreamEvent error = usual.events().get(3);
        assertEquals("modelStreamErrorException", error.event());
        assertEquals(529, Json.readTree(error.data()).get("originalStatusCode").asInt());
        assertEquals(3, usual.strikes());
        assertTrue(usual.broken());

        StreamErrorFault throttled = new StreamErrorFault(3, StreamErrorFault.Event.THROTTLING_EXCEPTION);
        assertEquals("throttlingException", BedrockChunks.replay(StreamReplay.of(throttled, ApiShape.MESSAGES, null,
                answer, 40, null, "f"), throttled).events().get(3).event());

        StreamErrorFault overloaded = new StreamErrorFault(3, StreamErrorFault.Event.OVERLOADED_ERROR);
        StreamReplay anthropic = StreamReplay.of(overloaded, ApiShape.MESSAGES, null, answer, 40, null, "f");
        assertSame(anthropic, BedrockChunks.replay(anthropic, overloaded), "Anthropic's error event, in a chunk");
        assertEquals("error", anthropic.events().get(3).event());

        StreamReplay cut = StreamReplay.of(new StreamCutFault(3), ApiShape.MESSAGES, null, answer, 40, null, "f");
        assertSame(cut, BedrockChunks.replay(cut, new StreamCutFault(3)));
        StreamReplay clean = StreamReplay.of(NoFault.INSTANCE, ApiShape.MESSAGES, null, answer, 40, null, "f");
        assertSame(clean, BedrockChunks.replay(clean, NoFault.INSTANCE));
    }

    @Test
    void theHeadersNameTheEventStreamAndItsPayloadsJson() {
        assertEquals(Map.of("content-type", "application/vnd.amazon.eventstream", "x-amzn-bedrock-content-type",
                "application/json"), BedrockChunks.headers());
    }
}
