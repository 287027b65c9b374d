package dev.resilienceharness.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Arrays;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * The canonical JSON text of a value (docs cassettes.md): byte for byte what Python prints for
 * {@code json.dumps(obj, sort_keys=True, separators=(",", ":"))}, so fingerprints match the workshop's.
 * Keys are sorted by code point, all non-ASCII is escaped, floats are written as Python's {@code repr}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /**
     * The canonical text of a value.
     *
     * @throws IllegalArgumentException for a NaN or infinite number, or a node that is not plain JSON
     *                                  (binary, POJO, missing)
     */
    public static String write(JsonNode node) {
        return write(node, new StringBuilder(256)).toString();
    }

    /**
     * Appends the canonical text of a value.
     *
     * @return {@code out}
     * @throws IllegalArgumentException as {@link #write(JsonNode)}; {@code out} then holds a partial text
     */
    public static StringBuilder write(JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            writeObject(node, out);
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0, n = node.size(); i < n; i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(node.get(i), out);
            }
            out.append(']');
        } else {
            AsciiJson.appendScalar(node, out);
        }
        return out;
    }

    /**
     * Whether two values have the same canonical text: exactly {@code write(a).equals(write(b))}, found by walking
     * both values instead of writing them, which for the long texts of chat completions is several times faster.
     *
     * @throws IllegalArgumentException as {@link #write(JsonNode)} would for either value
     */
    public static boolean sameText(JsonNode a, JsonNode b) {
        requireWritable(a);
        requireWritable(b);
        return same(a, b);
    }

    /** Throws what {@link #write(JsonNode)} would throw for {@code node}, without writing anything. */
    private static void requireWritable(JsonNode node) {
        if (node.isObject() || node.isArray()) {
            for (JsonNode child : node.values()) {
                requireWritable(child);
            }
            return;
        }
        switch (node.getNodeType()) {
            case STRING, BOOLEAN, NULL -> {
            }
            case NUMBER -> {
                if (!node.isIntegralNumber() && !Double.isFinite(floatValue(node))) {
                    throw new IllegalArgumentException(PythonFloat.NOT_FINITE);
                }
            }
            default -> throw new IllegalArgumentException("a " + node.getNodeType() + " node has no JSON form");
        }
    }

    /** Keys sorted alike and values alike: the same text. Both values are writable. */
    private static boolean same(JsonNode a, JsonNode b) {
        if (a.isObject()) {
            if (!b.isObject() || a.size() != b.size()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> property : a.properties()) {
                JsonNode other = b.get(property.getKey());
                if (other == null || !same(property.getValue(), other)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray()) {
            if (!b.isArray() || a.size() != b.size()) {
                return false;
            }
            for (int i = 0, n = a.size(); i < n; i++) {
                if (!same(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (b.isObject() || b.isArray() || a.getNodeType() != b.getNodeType()) {
            return false;
        }
        return switch (a.getNodeType()) {
            case STRING -> a.stringValue().equals(b.stringValue());
            case BOOLEAN -> a.booleanValue() == b.booleanValue();
            case NUMBER -> sameNumber(a, b);
            default -> true;  // null
        };
    }

    /** Integers print as their digits, floats as Python's repr, which differs for any two doubles. */
    private static boolean sameNumber(JsonNode a, JsonNode b) {
        if (a.isIntegralNumber() != b.isIntegralNumber()) {
            return false;
        }
        if (a.isIntegralNumber()) {
            return a.isBigInteger() || b.isBigInteger() ? a.bigIntegerValue().equals(b.bigIntegerValue())
                    : a.longValue() == b.longValue();
        }
        return Double.doubleToRawLongBits(floatValue(a)) == Double.doubleToRawLongBits(floatValue(b));
    }

    /** The double a float node is written as (see {@link AsciiJson}). */
    private static double floatValue(JsonNode node) {
        return node.isBigDecimal() ? node.decimalValue().doubleValue() : node.doubleValue();
    }

    private static void writeObject(JsonNode node, StringBuilder out) {
        String[] keys = node.propertyNames().toArray(new String[0]);
        if (keys.length > 1) {
            Arrays.sort(keys, CodePointOrder.INSTANCE);
        }
        out.append('{');
        for (int i = 0; i < keys.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            AsciiJson.appendString(keys[i], out);
            out.append(':');
            write(node.get(keys[i]), out);
        }
        out.append('}');
    }
}
