package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.CassetteStream;
import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.MalformedEventFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.StreamCutFault;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.fault.StreamStallFault;
import dev.resilienceharness.fault.TruncatedToolCallFault;
import dev.resilienceharness.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A streamed answer as one call of a run replays it: the recorded events at their recorded offsets (or, for an
 * answer recorded without its stream, the events a provider would have sent for it, all at its first-token time),
 * with the call's fault applied — a late first event, a cut, a stall, a malformed event, an error event, or tool-call
 * arguments that stop mid-JSON. Offsets are milliseconds since the request. Immutable.
 *
 * @param events  what is sent, in order
 * @param ending  how the stream ends after the last event
 * @param strikes the index of the first event the fault breaks or delays (the cut or error point, the stalled
 *                event, the malformed one), or -1 when it breaks nothing
 * @param fault   the fault's kind
 */
@API(status = INTERNAL, since = "0.1.0")
public record StreamReplay(List<StreamEvent> events, Ending ending, int strikes, String fault) {

    /** How a replayed stream ends. */
    public enum Ending {
        /** The last event sent, the connection closes normally. */
        COMPLETE,
        /** The connection drops after the last event: the reader's next read fails. */
        CUT
    }

    /** The data of an event that is not JSON: a chunk cut off mid-object. */
    public static final String MALFORMED = "{\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"";

    /** The message of an injected in-stream error, in every API's shape. */
    static final String STREAM_ERROR = "injected stream_error fault: the provider failed mid-stream";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    public StreamReplay {
        events = List.copyOf(events);
        Objects.requireNonNull(ending, "ending");
        Objects.requireNonNull(fault, "fault");
    }

    /**
     * The stream {@code fault} makes of a recorded answer.
     *
     * @param recordedStream the cassette's events, or {@code null} when the answer was recorded whole
     * @param recorded       the recorded (assembled) answer, its stripped identifiers put back
     * @param firstTokenMs   the recorded first-token latency, 0 when unknown
     * @param request        the request, whose tools name the tool a truncated call is for
     * @param fingerprint    the cassette's fingerprint, for the identifiers a chunk needs
     */
    public static StreamReplay of(Fault fault, ApiShape shape, CassetteStream recordedStream, JsonNode recorded,
            long firstTokenMs, JsonNode request, String fingerprint) {
        List<StreamEvent> events;
        if (fault instanceof TruncatedToolCallFault || fault instanceof BadToolCallFault
                || recordedStream == null || recordedStream.events().isEmpty()) {
            JsonNode body = fault instanceof TruncatedToolCallFault || fault instanceof BadToolCallFault
                    ? BrokenToolCalls.of(shape, recorded, request) : recorded;
            long at = recordedStream != null ? recordedStream.firstEventMs() : Math.max(0, firstTokenMs);
            events = synthesized(shape, body, request, at);
        } else {
            events = new ArrayList<>(recordedStream.events());
        }
        events = withIdentifiers(shape, events, recorded, fingerprint);
        String kind = fault.kind();
        if (fault instanceof SlowFirstTokenFault s && !events.isEmpty()) {
            long shift = Math.max(0, s.elapsedMs() - events.get(0).atMs());
            events = shifted(events, 0, shift);
            return new StreamReplay(events, Ending.COMPLETE, 0, kind);
        }
        if (fault instanceof StreamCutFault c && c.afterEvents() < events.size()) {
            return new StreamReplay(events.subList(0, c.afterEvents()), Ending.CUT, c.afterEvents(), kind);
        }
        if (fault instanceof StreamStallFault s && s.afterEvents() < events.size()) {
            return new StreamReplay(shifted(events, s.afterEvents(), s.ms()), Ending.COMPLETE, s.afterEvents(), kind);
        }
        if (fault instanceof MalformedEventFault m && m.at() < events.size()) {
            List<StreamEvent> out = new ArrayList<>(events);
            out.set(m.at(), out.get(m.at()).withData(MALFORMED));
            return new StreamReplay(out, Ending.COMPLETE, m.at(), kind);
        }
        if (fault instanceof StreamErrorFault e && e.afterEvents() < events.size()) {
            List<StreamEvent> out = new ArrayList<>(events.subList(0, e.afterEvents()));
            long at = events.get(e.afterEvents()).atMs();
            out.add(errorEvent(shape, e.error(), recorded, at, e.afterEvents()));
            return new StreamReplay(out, Ending.COMPLETE, e.afterEvents(), kind);
        }
        if (fault instanceof TruncatedToolCallFault) {
            return new StreamReplay(events, Ending.COMPLETE, 0, kind);
        }
        return new StreamReplay(events, Ending.COMPLETE, -1, kind);
    }

    /** The bytes a client reads: every event's wire form, in order. */
    public byte[] wire() {
        StringBuilder sb = new StringBuilder();
        events.forEach(e -> sb.append(e.wire()));
        return sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The bytes a client of {@code shape} reads: AWS event-stream frames for Bedrock, else {@link #wire()}. */
    public byte[] wire(ApiShape shape) {
        return shape == ApiShape.BEDROCK ? BedrockStreams.frames(events) : wire();
    }

    /** One event as a client of {@code shape} reads it: its frame for Bedrock, its server-sent event otherwise. */
    public static byte[] wire(ApiShape shape, StreamEvent event) {
        return shape == ApiShape.BEDROCK ? BedrockStreams.frame(event)
                : event.wire().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The content type of a stream of {@code shape}: {@code application/vnd.amazon.eventstream} for Bedrock. */
    public static String contentType(ApiShape shape) {
        return shape == ApiShape.BEDROCK ? EventStreamFrames.CONTENT_TYPE : "text/event-stream";
    }

    /** Whether the fault breaks the stream (a cut, a malformed event, an error event) rather than only delaying it. */
    public boolean broken() {
        return strikes >= 0 && ("stream_cut".equals(fault) || "malformed_event".equals(fault)
                || "stream_error".equals(fault));
    }

    /** The text the events carry, as a reader assembling the answer sees it: content deltas, in order. */
    public static String text(List<StreamEvent> events) {
        StringBuilder sb = new StringBuilder();
        for (StreamEvent e : events) {
            sb.append(text(e));
        }
        return sb.toString();
    }

    /**
     * The text one event carries: a Chat Completions content delta, a Messages {@code text_delta}, a Responses
     * {@code response.output_text.delta} or the text parts of a Gemini chunk.
     */
    public static String text(StreamEvent e) {
        ObjectNode chunk = CassetteStream.chunk(e.data());
        if (chunk == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        JsonNode choices = chunk.get("choices");
        if (choices != null && choices.isArray()) {
            for (JsonNode c : choices) {
                JsonNode content = c.path("delta").get("content");
                if (content != null && content.isString()) {
                    sb.append(content.asString());
                }
            }
        }
        JsonNode candidates = chunk.get("candidates");
        if (candidates != null && candidates.isArray()) {
            for (JsonNode c : candidates) {
                for (JsonNode part : c.path("content").path("parts")) {
                    if (part.path("text").isString() && !part.path("thought").asBoolean(false)) {
                        sb.append(part.get("text").asString());
                    }
                }
            }
        }
        JsonNode delta = chunk.get("delta");
        if (delta != null && delta.path("text").isString()) {
            sb.append(delta.get("text").asString());
        } else if (delta != null && delta.isString()
                && "response.output_text.delta".equals(chunk.path("type").asString(""))) {
            sb.append(delta.asString());
        }
        return sb.toString();
    }

    /**
     * The events the API would have sent for {@code body}, all at {@code atMs}: Chat Completions chunks (with a usage
     * chunk when {@code request} asks for one), the named events of Messages or Responses, or Gemini's chunks.
     */
    public static List<StreamEvent> synthesized(ApiShape shape, JsonNode body, JsonNode request, long atMs) {
        if (shape == ApiShape.GEMINI) {
            return GeminiStreams.of(body, atMs);
        }
        if (shape == ApiShape.BEDROCK) {
            return BedrockStreams.of(body, atMs);
        }
        if (shape == ApiShape.MESSAGES) {
            return MessageStreams.of(body, atMs);
        }
        if (shape == ApiShape.RESPONSES) {
            return ResponseStreams.of(body, atMs);
        }
        boolean usage = request != null && request.path("stream_options").path("include_usage").asBoolean(false);
        List<StreamEvent> out = new ArrayList<>();
        for (String data : ChunkStreams.of(body, usage)) {
            out.add(new StreamEvent(atMs, data));
        }
        return out;
    }

    private static List<StreamEvent> shifted(List<StreamEvent> events, int from, long ms) {
        List<StreamEvent> out = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            out.add(i >= from ? events.get(i).later(ms) : events.get(i));
        }
        return out;
    }

    /**
     * The error event a provider sends mid-stream, in the API's own shape; {@code sequence} numbers it in a Responses
     * stream, whose error event is flat ({@code type}, {@code code}, {@code message}, {@code param}) and named
     * {@code error}, like a Messages one. Gemini's is a chunk holding its error JSON, a 503 {@code UNAVAILABLE}.
     */
    static StreamEvent errorEvent(ApiShape shape, long atMs, int sequence) {
        return errorEvent(shape, null, null, atMs, sequence);
    }

    /**
     * The error event {@code error} names, in {@code shape}'s own form: on Messages an {@code event: error} whose
     * type is {@code overloaded_error} or {@code api_error}; on Responses the flat {@code error} event, or
     * {@code response.failed} carrying {@code recorded} with status {@code failed} and its error; on Chat Completions,
     * which has one form only, a chunk holding an {@code error} object; on Gemini a chunk holding Google's error JSON
     * with code 429 {@code RESOURCE_EXHAUSTED}, 500 {@code INTERNAL} or 503 {@code UNAVAILABLE}, the usual one; on
     * Bedrock's ConverseStream the {@code throttlingException} or {@code modelStreamErrorException} frame. A name
     * another API has no event for (or
     * {@code null}) is the API's usual error event.
     */
    static StreamEvent errorEvent(ApiShape shape, StreamErrorFault.Event error, JsonNode recorded, long atMs,
            int sequence) {
        String message = STREAM_ERROR;
        if (shape == ApiShape.GEMINI) {
            int status = error == StreamErrorFault.Event.RESOURCE_EXHAUSTED ? 429
                    : error == StreamErrorFault.Event.INTERNAL ? 500 : 503;
            return new StreamEvent(atMs, Json.compact(shape.errorBody(status, "server_error", message, null)));
        }
        if (shape == ApiShape.BEDROCK) {
            return BedrockStreams.errorEvent(error, message, atMs);
        }
        if (shape == ApiShape.MESSAGES) {
            String type = error == StreamErrorFault.Event.API_ERROR ? "api_error" : "overloaded_error";
            ObjectNode e = NODES.objectNode().put("type", "error");
            e.putObject("error").put("type", type).put("message", message);
            return new StreamEvent(atMs, "error", Json.compact(e));
        }
        if (shape == ApiShape.RESPONSES && error == StreamErrorFault.Event.RESPONSE_FAILED) {
            ObjectNode response = recorded != null && recorded.isObject() ? ((ObjectNode) recorded).deepCopy()
                    : NODES.objectNode().put("object", "response");
            response.put("status", "failed");
            response.putObject("error").put("code", "server_error").put("message", message);
            response.putNull("incomplete_details");
            response.putArray("output");
            ObjectNode e = NODES.objectNode().put("type", "response.failed").put("sequence_number", sequence);
            e.set("response", response);
            return new StreamEvent(atMs, "response.failed", Json.compact(e));
        }
        if (shape == ApiShape.RESPONSES) {
            ObjectNode e = NODES.objectNode().put("type", "error").put("code", "server_error").put("message", message)
                    .putNull("param").put("sequence_number", sequence);
            return new StreamEvent(atMs, "error", Json.compact(e));
        }
        ObjectNode e = NODES.objectNode();
        e.putObject("error").put("message", message).put("type", "server_error").putNull("param")
                .put("code", "server_error");
        return new StreamEvent(atMs, Json.compact(e));
    }

    /**
     * Chat chunks, and the response a Responses or Messages event carries, get back the identifiers recording
     * stripped (strict clients read them), like a whole answer.
     */
    private static List<StreamEvent> withIdentifiers(ApiShape shape, List<StreamEvent> events, JsonNode recorded,
            String fingerprint) {
        if (shape == ApiShape.GEMINI || shape == ApiShape.BEDROCK) {
            return events; // Gemini's chunks and Bedrock's events need no identifier
        }
        if (shape != ApiShape.CHAT_COMPLETIONS) {
            List<StreamEvent> out = new ArrayList<>(events.size());
            for (StreamEvent e : events) {
                // Only an event that names a carrier is read: most are deltas, and this runs for every streamed call.
                boolean mayCarry = e.data().contains("\"response\"") || e.data().contains("\"message\"");
                ObjectNode event = mayCarry ? CassetteStream.chunk(e.data()) : null;
                String key = event == null ? null : CassetteStream.carrier(event);
                JsonNode carried = key == null ? null : event.get(key);
                JsonNode whole = carried == null ? null : FaultAsHttp.answerable(shape, carried, fingerprint);
                if (whole == carried) {
                    out.add(e);
                } else {
                    event.set(key, whole);
                    out.add(e.withData(Json.compact(event)));
                }
            }
            return out;
        }
        List<StreamEvent> out = new ArrayList<>(events.size());
        for (StreamEvent e : events) {
            ObjectNode chunk = CassetteStream.chunk(e.data());
            if (chunk == null || !chunk.has("choices") || chunk.has("id") && chunk.has("object")
                    && chunk.has("created")) {
                out.add(e);
                continue;
            }
            ObjectNode full = NODES.objectNode();
            full.put("id", chunk.path("id").asString(recorded.path("id").asString("chatcmpl-" + fingerprint)));
            full.put("object", "chat.completion.chunk");
            full.set("created", chunk.has("created") ? chunk.get("created")
                    : recorded.has("created") ? recorded.get("created") : NODES.numberNode(FaultAsHttp.REPLAY_CREATED));
            chunk.properties().forEach(p -> full.set(p.getKey(), p.getValue()));
            out.add(e.withData(Json.compact(full)));
        }
        return out;
    }
}
