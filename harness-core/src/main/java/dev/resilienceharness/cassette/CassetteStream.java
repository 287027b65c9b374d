package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A cassette's optional {@code stream}: every server-sent event of a streamed answer with its arrival offset,
 * {@code {"events": [{"at_ms": 180, "data": "{…}"}, …, {"at_ms": 950, "data": "[DONE]"}]}}. The cassette's
 * {@code response} stays the assembled message, so readers that know nothing of streams (the workshop's Python
 * harness) read the same answer; the fingerprint covers only the request and does not change.
 *
 * @param events the events in arrival order, offsets never decreasing
 */
@API(status = INTERNAL, since = "0.1.0")
public record CassetteStream(List<StreamEvent> events) {

    /** The key under which a cassette holds its stream. */
    public static final String KEY = "stream";

    public CassetteStream {
        events = List.copyOf(events);
        long last = 0;
        for (StreamEvent e : events) {
            if (e.atMs() < last) {
                throw new IllegalArgumentException("stream events must be in arrival order: " + e.atMs()
                        + " ms comes after " + last + " ms");
            }
            last = e.atMs();
        }
    }

    /** The {@code stream} object as written in a cassette. */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        ArrayNode list = node.putArray("events");
        for (StreamEvent e : events) {
            ObjectNode event = list.addObject();
            event.put("at_ms", e.atMs());
            if (e.event() != null) {
                event.put("event", e.event());
            }
            event.put("data", e.data());
        }
        return node;
    }

    /** The offset of the first event, or 0 for an empty stream. */
    public long firstEventMs() {
        return events.isEmpty() ? 0 : events.get(0).atMs();
    }

    /**
     * Reads a checked {@code stream} object (see {@link CassetteReader}); {@code null} for a missing one.
     *
     * @throws IllegalArgumentException naming the first problem, as a phrase that follows the key's path
     */
    static CassetteStream fromJson(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException(CassetteMessages.streamNotAnObject(CassetteMessages.kind(node)));
        }
        for (String key : node.propertyNames()) {
            if (!"events".equals(key)) {
                throw new IllegalArgumentException(CassetteMessages.streamUnknownKey("stream." + key));
            }
        }
        JsonNode list = node.get("events");
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException(CassetteMessages.streamEventsNotAList(
                    list == null ? "missing" : "a JSON " + CassetteMessages.kind(list)));
        }
        List<StreamEvent> events = new ArrayList<>(list.size());
        long last = 0;
        for (int i = 0; i < list.size(); i++) {
            String at = "stream.events[" + i + "]";
            JsonNode e = list.get(i);
            if (!e.isObject()) {
                throw new IllegalArgumentException(CassetteMessages.streamEventNotAnObject(at,
                        CassetteMessages.kind(e)));
            }
            for (String key : e.propertyNames()) {
                if (!List.of("at_ms", "event", "data").contains(key)) {
                    throw new IllegalArgumentException(CassetteMessages.streamUnknownKey(at + "." + key));
                }
            }
            JsonNode ms = e.get("at_ms");
            if (ms == null || !ms.isIntegralNumber() || !ms.canConvertToLong() || ms.asLong() < 0) {
                throw new IllegalArgumentException(CassetteMessages.badEventOffset(at, ms == null ? "missing"
                        : ms.isNumber() ? CassetteMessages.abbreviate(ms.toString())
                        : "a JSON " + CassetteMessages.kind(ms)));
            }
            if (ms.asLong() < last) {
                throw new IllegalArgumentException(CassetteMessages.eventOutOfOrder(at, ms.asLong(), last));
            }
            last = ms.asLong();
            JsonNode data = e.get("data");
            if (data == null || !data.isString()) {
                throw new IllegalArgumentException(CassetteMessages.badEventData(at, data == null ? "missing"
                        : "a JSON " + CassetteMessages.kind(data)));
            }
            JsonNode name = e.get("event");
            if (name != null && !name.isNull() && !name.isString()) {
                throw new IllegalArgumentException(CassetteMessages.badEventName(at, CassetteMessages.kind(name)));
            }
            events.add(new StreamEvent(last, name == null || name.isNull() ? null : name.asString(),
                    data.asString()));
        }
        return new CassetteStream(events);
    }

    /**
     * Applies the {@code response.} volatile paths inside every event of {@code cassette}'s stream whose data is a
     * JSON object (a stream chunk is a piece of the response: its {@code id}, {@code created} and
     * {@code system_fingerprint} are the response's), and to the response such an event carries (the
     * {@code response} of a Responses stream's {@code response.created} and {@code response.completed}, the
     * {@code message} of a Messages stream's {@code message_start}), in place.
     */
    static void stripVolatile(ObjectNode cassette, VolatilePaths volatilePaths) {
        if (!volatilePaths.touchesResponse()) {
            return;
        }
        JsonNode list = cassette.path(KEY).path("events");
        if (!list.isArray()) {
            return;
        }
        for (JsonNode e : list) {
            JsonNode data = e.get("data");
            if (!(e instanceof ObjectNode event) || data == null || !data.isString()) {
                continue;
            }
            ObjectNode chunk = chunk(data.asString());
            if (chunk != null) {
                volatilePaths.stripResponse(chunk);
                String key = carrier(chunk);
                if (key != null) {
                    volatilePaths.stripResponse(chunk.get(key));
                }
                event.put("data", Json.compact(chunk));
            }
        }
    }

    /**
     * The volatile fields still present inside the events of {@code cassette}'s stream, as paths such as
     * {@code stream.events[2].data.id}; empty for a stripped cassette.
     */
    public static List<String> remainingVolatile(ObjectNode cassette, VolatilePaths volatilePaths) {
        List<String> found = new ArrayList<>();
        JsonNode list = cassette.path(KEY).path("events");
        if (!volatilePaths.touchesResponse() || !list.isArray()) {
            return found;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode data = list.get(i).get("data");
            ObjectNode chunk = data == null || !data.isString() ? null : chunk(data.asString());
            if (chunk == null) {
                continue;
            }
            remaining(found, "stream.events[" + i + "].data", chunk, volatilePaths);
            String key = carrier(chunk);
            if (key != null) {
                remaining(found, "stream.events[" + i + "].data." + key, (ObjectNode) chunk.get(key), volatilePaths);
            }
        }
        return found;
    }

    /**
     * The key under which an event carries the whole response (a Responses event's {@code response}, a Messages
     * {@code message_start}'s {@code message}), or {@code null} when it carries none.
     */
    public static String carrier(ObjectNode chunk) {
        for (String key : new String[] {"response", "message"}) {
            if (chunk.get(key) instanceof ObjectNode && !chunk.has("choices")) {
                return key;
            }
        }
        return null;
    }

    /** Adds the {@code response.} volatile fields present in {@code part}, as paths below {@code at}. */
    private static void remaining(List<String> found, String at, ObjectNode part, VolatilePaths volatilePaths) {
        ObjectNode wrapped = JsonNodeFactory.instance.objectNode();
        wrapped.set("response", part);
        for (String path : volatilePaths.remaining(wrapped)) {
            if (path.startsWith("response")) {
                found.add(at + path.substring("response".length()));
            }
        }
    }

    /** The JSON object an event carries, or {@code null} for {@code [DONE]} and anything that is not one. */
    public static ObjectNode chunk(String data) {
        String text = data.strip();
        if (!text.startsWith("{")) {
            return null;
        }
        try {
            JsonNode node = Json.readTree(text);
            return node instanceof ObjectNode o ? o : null;
        } catch (JacksonException e) {
            return null;
        }
    }
}
