package dev.resilienceharness.json;

import java.util.Arrays;
import tools.jackson.databind.JsonNode;

/**
 * The canonical JSON text of a value (SPEC section 4): byte for byte what Python prints for
 * {@code json.dumps(obj, sort_keys=True, separators=(",", ":"))}, so fingerprints match the workshop's.
 * Keys are sorted by code point, all non-ASCII is escaped, floats are written as Python's {@code repr}.
 */
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
