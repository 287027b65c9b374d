package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A cassette's optional {@code timing}: how late the first token arrived and how long the whole answer took, and,
 * when recorded with {@code -Dresilience.record.samples=N}, the N timings the request's sends took.
 *
 * @param firstTokenMs milliseconds to the first token, or {@code null}
 * @param totalMs      milliseconds to the last byte, or {@code null}
 * @param samples      the timing of each send, the first of which is this timing; empty unless recorded
 *                     ({@code timing.samples}, which readers of the Python format ignore)
 */
@API(status = INTERNAL, since = "0.1.0")
public record Timing(Long firstTokenMs, Long totalMs, List<Timing> samples) {

    public Timing {
        samples = samples == null ? List.of() : List.copyOf(samples);
    }

    /** A timing without samples. */
    public Timing(Long firstTokenMs, Long totalMs) {
        this(firstTokenMs, totalMs, List.of());
    }

    /** This timing with {@code samples}. */
    public Timing withSamples(List<Timing> samples) {
        return new Timing(firstTokenMs, totalMs, samples);
    }

    /** Reads a {@code timing} object; {@code null} for a missing one. */
    static Timing fromJson(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        List<Timing> samples = new ArrayList<>();
        JsonNode list = node.get("samples");
        if (list != null && list.isArray()) {
            for (JsonNode s : list) {
                samples.add(new Timing(millis(s.get("first_token_ms")), millis(s.get("total_ms"))));
            }
        }
        return new Timing(millis(node.get("first_token_ms")), millis(node.get("total_ms")), samples);
    }

    private static Long millis(JsonNode n) {
        if (n == null || !n.isNumber()) {
            return null;
        }
        if (n.isIntegralNumber()) {
            // canConvertToLong first: asDouble throws for an integer beyond the double range.
            return n.canConvertToLong() ? n.asLong() : null;
        }
        double d = n.asDouble();
        return Double.isFinite(d) && Math.abs(d) < 9.0e18 ? Math.round(d) : null;
    }

    /** The {@code timing} object as written in a cassette. */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (firstTokenMs != null) {
            node.put("first_token_ms", firstTokenMs.longValue());
        }
        if (totalMs != null) {
            node.put("total_ms", totalMs.longValue());
        }
        if (!samples.isEmpty()) {
            ArrayNode list = node.putArray("samples");
            samples.forEach(s -> list.add(s.toJson()));
        }
        return node;
    }
}
