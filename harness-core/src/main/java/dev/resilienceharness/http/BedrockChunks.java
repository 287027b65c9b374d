package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Anthropic's Messages stream as Bedrock's InvokeModelWithResponseStream sends it
 * ({@code model/{modelId}/invoke-with-response-stream}): each server-sent event is one AWS event-stream frame with
 * {@code :event-type: chunk}, whose JSON payload's {@code bytes} is the base64 of the event's JSON; an exception the
 * stream ends with ({@code modelStreamErrorException}, {@code throttlingException}) is a frame of its own with
 * {@code :message-type: exception}. Events are kept as Messages events (named by their {@code type}), so that such a
 * stream is recorded, assembled and replayed as a Messages stream is.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class BedrockChunks {

    /** The header naming the content type of each chunk's payload; anthropic-java's Bedrock backend requires it. */
    public static final String PAYLOAD_CONTENT_TYPE = "x-amzn-bedrock-content-type";

    private BedrockChunks() {
    }

    /** Whether {@code path} (a leading slash and a query allowed) is Bedrock's stream of one of Anthropic's models. */
    public static boolean streams(String path) {
        if (path == null) {
            return false;
        }
        int query = path.indexOf('?');
        return AnthropicCloudPaths.bedrockStream(query >= 0 ? path.substring(0, query) : path);
    }

    /** The headers of such a stream's 200: the event-stream content type, and its payloads' JSON. */
    public static Map<String, String> headers() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", EventStreamFrames.CONTENT_TYPE);
        headers.put(PAYLOAD_CONTENT_TYPE, "application/json");
        return headers;
    }

    /**
     * {@code messages} (a Messages stream with {@code fault} applied) as Bedrock sends it: a {@code stream_error}
     * naming Anthropic's {@code overloaded_error} or {@code api_error} stays Anthropic's error event inside a chunk;
     * any other (none named, {@code modelStreamErrorException}, {@code throttlingException}) is Bedrock's exception
     * frame, {@code modelStreamErrorException} being its usual one.
     */
    public static StreamReplay replay(StreamReplay messages, Fault fault) {
        if (!(fault instanceof StreamErrorFault e) || !"stream_error".equals(messages.fault())
                || messages.strikes() < 0 || messages.strikes() >= messages.events().size()
                || e.error() == StreamErrorFault.Event.OVERLOADED_ERROR
                || e.error() == StreamErrorFault.Event.API_ERROR) {
            return messages;
        }
        List<StreamEvent> events = new ArrayList<>(messages.events());
        StreamEvent at = events.get(messages.strikes());
        StreamErrorFault.Event error = e.error() == StreamErrorFault.Event.THROTTLING_EXCEPTION ? e.error()
                : StreamErrorFault.Event.MODEL_STREAM_ERROR_EXCEPTION;
        events.set(messages.strikes(), BedrockStreams.errorEvent(error, StreamReplay.STREAM_ERROR, at.atMs()));
        return new StreamReplay(events, messages.ending(), messages.strikes(), messages.fault());
    }

    /**
     * The frame of {@code event}: an exception ({@link BedrockStreams#isException}) as Bedrock's exception frame, any
     * other event as a chunk carrying its data, base64-encoded, as {@code bytes}.
     */
    public static byte[] frame(StreamEvent event) {
        if (BedrockStreams.isException(event.event())) {
            return BedrockStreams.frame(event);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(":event-type", "chunk");
        headers.put(":content-type", "application/json");
        headers.put(":message-type", "event");
        String payload = Json.compact(JsonNodeFactory.instance.objectNode().put("bytes",
                Base64.getEncoder().encodeToString(event.data().getBytes(StandardCharsets.UTF_8))));
        return EventStreamFrames.encode(headers, payload.getBytes(StandardCharsets.UTF_8));
    }

    /** Every event's frame, in order. */
    public static byte[] frames(List<StreamEvent> events) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        events.forEach(e -> out.writeBytes(frame(e)));
        return out.toByteArray();
    }

    /**
     * The events of such a stream as they arrive, each stamped with the time its frame was read: a chunk as the
     * Messages event it carries (named by its {@code type}), an exception by its {@code :exception-type} with its
     * payload, an error message by its {@code :error-code}.
     *
     * @throws EventStreamFrames.BadFrame when a frame is broken, or a chunk carries no JSON event
     * @throws IOException                when reading fails
     */
    public static List<StreamEvent> read(InputStream body, LongSupplier sinceRequestMs) throws IOException {
        List<StreamEvent> out = new ArrayList<>();
        for (StreamEvent e : BedrockStreams.read(body, sinceRequestMs)) {
            if (!"chunk".equals(e.event())) {
                out.add(e);
                continue;
            }
            String data;
            String type;
            try {
                data = new String(Base64.getDecoder().decode(Json.readTree(e.data()).path("bytes").asString("")),
                        StandardCharsets.UTF_8);
                JsonNode event = Json.readTree(data);
                type = event.path("type").asString("");
            } catch (JacksonException | IllegalArgumentException bad) {
                throw new EventStreamFrames.BadFrame("a Bedrock chunk carries no Messages event: " + bad.getMessage());
            }
            out.add(new StreamEvent(e.atMs(), type, data));
        }
        return out;
    }
}
