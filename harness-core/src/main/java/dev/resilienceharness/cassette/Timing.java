package dev.resilienceharness.cassette;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A cassette's optional {@code timing}: how late the first token arrived and how long the whole answer took.
 *
 * @param firstTokenMs milliseconds to the first token, or {@code null}
 * @param totalMs      milliseconds to the last byte, or {@code null}
 */
public record Timing(Long firstTokenMs, Long totalMs) {

    /** Reads a {@code timing} object; {@code null} for a missing one. */
    static Timing fromJson(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        return new Timing(millis(node.get("first_token_ms")), millis(node.get("total_ms")));
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
        return node;
    }
}
