package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Bedrock's {@code ConverseStream} as events: splits a {@code Converse} answer into the events the stream would have
 * sent for it ({@code messageStart}, per content block an optional {@code contentBlockStart}, its
 * {@code contentBlockDelta} pieces and {@code contentBlockStop}, then {@code messageStop} and {@code metadata}), and
 * turns each event into its AWS event-stream frame and back. An event is kept as its {@code :event-type} and its JSON
 * payload; an exception the stream ends with ({@code throttlingException}, {@code modelStreamErrorException}, ...) as
 * its {@code :exception-type} and payload. The inverse of {@link BedrockEvents}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class BedrockStreams {

    /** The events of a ConverseStream, in the order Bedrock sends them. */
    static final Set<String> EVENTS = Set.of("messageStart", "contentBlockStart", "contentBlockDelta",
            "contentBlockStop", "messageStop", "metadata");

    /** The exceptions a ConverseStream can end with, as its {@code :exception-type} names them. */
    static final Set<String> EXCEPTIONS = Set.of("internalServerException", "modelStreamErrorException",
            "validationException", "throttlingException", "serviceUnavailableException");

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private BedrockStreams() {
    }

    /** Whether {@code name} is an event a ConverseStream sends. */
    public static boolean isEvent(String name) {
        return name != null && EVENTS.contains(name);
    }

    /** Whether {@code name} is an exception (or error) the stream reported: the way a ConverseStream fails. */
    public static boolean isException(String name) {
        return name != null && (EXCEPTIONS.contains(name) || name.endsWith("Exception"));
    }

    /**
     * The events of {@code response}, each at {@code atMs}. A {@code toolUse} block's {@code input} is sent as its
     * compact JSON in pieces, or, when it is a string (a broken tool call's cut-off input), as that string.
     */
    public static List<StreamEvent> of(JsonNode response, long atMs) {
        List<StreamEvent> out = new ArrayList<>();
        JsonNode message = response.path("output").path("message");
        out.add(event(atMs, "messageStart", NODES.objectNode().put("role",
                message.path("role").asString("assistant"))));
        int index = 0;
        for (JsonNode block : message.path("content")) {
            if (block.path("text").isString()) {
                for (String piece : pieces(block.get("text").asString())) {
                    out.add(delta(atMs, index, NODES.objectNode().put("text", piece)));
                }
            } else if (block.get("toolUse") instanceof ObjectNode use) {
                ObjectNode start = NODES.objectNode().put("contentBlockIndex", index);
                start.putObject("start").putObject("toolUse").put("toolUseId", use.path("toolUseId").asString(""))
                        .put("name", use.path("name").asString(""));
                out.add(event(atMs, "contentBlockStart", start));
                JsonNode input = use.get("input");
                String json = input == null || input.isNull() ? "" : input.isString() ? input.asString()
                        : Json.compact(input);
                for (String piece : ChunkStreams.pieces(json)) {
                    ObjectNode d = NODES.objectNode();
                    d.putObject("toolUse").put("input", piece);
                    out.add(delta(atMs, index, d));
                }
            } else if (block.get("reasoningContent") instanceof ObjectNode reasoning) {
                JsonNode text = reasoning.path("reasoningText");
                for (String piece : pieces(text.path("text").asString(""))) {
                    ObjectNode d = NODES.objectNode();
                    d.putObject("reasoningContent").put("text", piece);
                    out.add(delta(atMs, index, d));
                }
                if (text.path("signature").isString()) {
                    ObjectNode d = NODES.objectNode();
                    d.putObject("reasoningContent").put("signature", text.get("signature").asString());
                    out.add(delta(atMs, index, d));
                }
            } else {
                continue; // a block the stream has no delta for (an image, a document) is not streamed
            }
            out.add(event(atMs, "contentBlockStop", NODES.objectNode().put("contentBlockIndex", index)));
            index++;
        }
        ObjectNode stop = NODES.objectNode().put("stopReason", response.path("stopReason").asString("end_turn"));
        if (response.has("additionalModelResponseFields")) {
            stop.set("additionalModelResponseFields", response.get("additionalModelResponseFields").deepCopy());
        }
        out.add(event(atMs, "messageStop", stop));
        ObjectNode metadata = NODES.objectNode();
        for (String key : List.of("usage", "metrics", "trace", "performanceConfig")) {
            if (response.has(key)) {
                metadata.set(key, response.get(key).deepCopy());
            }
        }
        if (!metadata.has("metrics")) {
            metadata.putObject("metrics").put("latencyMs", 0);
        }
        out.add(event(atMs, "metadata", metadata));
        return out;
    }

    /**
     * The exception {@code error} names, as a ConverseStream sends it: {@code throttlingException} with its
     * {@code message}, or (for any other name, or {@code null}) {@code modelStreamErrorException} with the model's
     * {@code originalStatusCode} and {@code originalMessage} too.
     */
    static StreamEvent errorEvent(StreamErrorFault.Event error, String message, long atMs) {
        ObjectNode payload = NODES.objectNode().put("message", message);
        if (error == StreamErrorFault.Event.THROTTLING_EXCEPTION) {
            return event(atMs, "throttlingException", payload);
        }
        payload.put("originalStatusCode", 529).put("originalMessage", "Overloaded");
        return event(atMs, "modelStreamErrorException", payload);
    }

    /**
     * The frame of {@code event}: {@code :event-type}, {@code :content-type} and {@code :message-type: event}, or for
     * an exception {@code :exception-type}, {@code :content-type} and {@code :message-type: exception}; the payload is
     * the event's data.
     */
    public static byte[] frame(StreamEvent event) {
        Map<String, String> headers = new LinkedHashMap<>();
        String name = event.event() == null ? "" : event.event();
        boolean exception = isException(name);
        headers.put(exception ? ":exception-type" : ":event-type", name);
        headers.put(":content-type", "application/json");
        headers.put(":message-type", exception ? "exception" : "event");
        return EventStreamFrames.encode(headers, event.data().getBytes(StandardCharsets.UTF_8));
    }

    /** Every event's frame, in order. */
    public static byte[] frames(List<StreamEvent> events) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        events.forEach(e -> out.writeBytes(frame(e)));
        return out.toByteArray();
    }

    /**
     * The events of an event stream as they arrive, each stamped with the time its frame was read: an event by its
     * {@code :event-type}, an exception by its {@code :exception-type}, an error message by its {@code :error-code}
     * (its {@code :error-message} as the payload's {@code message}).
     *
     * @throws EventStreamFrames.BadFrame when a frame is broken
     * @throws IOException                when reading fails
     */
    public static List<StreamEvent> read(InputStream body, LongSupplier sinceRequestMs) throws IOException {
        List<StreamEvent> events = new ArrayList<>();
        long last = 0;
        EventStreamFrames.Frame f;
        while ((f = EventStreamFrames.read(body)) != null) {
            last = Math.max(last, sinceRequestMs.getAsLong());
            String type = f.header(":message-type");
            if ("exception".equals(type)) {
                events.add(new StreamEvent(last, f.header(":exception-type"), f.text()));
            } else if ("error".equals(type)) {
                String code = f.header(":error-code");
                events.add(new StreamEvent(last, code == null ? "error" : code, Json.compact(NODES.objectNode()
                        .put("message", String.valueOf(f.header(":error-message"))))));
            } else {
                events.add(new StreamEvent(last, f.header(":event-type"), f.text()));
            }
        }
        return events;
    }

    /** {@code text} in pieces; an empty text is one empty piece, so that its block still arrives. */
    private static List<String> pieces(String text) {
        return text.isEmpty() ? List.of("") : ChunkStreams.pieces(text);
    }

    private static StreamEvent delta(long atMs, int index, ObjectNode delta) {
        ObjectNode d = NODES.objectNode().put("contentBlockIndex", index);
        d.set("delta", delta);
        return event(atMs, "contentBlockDelta", d);
    }

    private static StreamEvent event(long atMs, String name, ObjectNode payload) {
        return new StreamEvent(atMs, name, Json.compact(payload));
    }
}
