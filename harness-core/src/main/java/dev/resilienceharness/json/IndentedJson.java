package dev.resilienceharness.json;

import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * What Python prints for {@code json.dumps(obj, indent=2)}: keys in insertion order, {@code ", "} between
 * key and value, one item per line indented by two spaces per level, {@code {}} and {@code []} for empty
 * containers, non-ASCII escaped; no newline at the end. The workshop writes its cassette files this way.
 */
final class IndentedJson {

    private static final int INDENT = 2;

    private IndentedJson() {
    }

    static String write(JsonNode node) {
        StringBuilder out = new StringBuilder(512);
        write(node, 0, out);
        return out.toString();
    }

    private static void write(JsonNode node, int depth, StringBuilder out) {
        if (node.isObject()) {
            if (node.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, JsonNode> property : node.properties()) {
                first = separate(first, depth + 1, out);
                AsciiJson.appendString(property.getKey(), out);
                out.append(": ");
                write(property.getValue(), depth + 1, out);
            }
            newline(depth, out).append('}');
        } else if (node.isArray()) {
            if (node.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append('[');
            boolean first = true;
            for (JsonNode element : node.values()) {
                first = separate(first, depth + 1, out);
                write(element, depth + 1, out);
            }
            newline(depth, out).append(']');
        } else {
            AsciiJson.appendScalar(node, out);
        }
    }

    private static boolean separate(boolean first, int depth, StringBuilder out) {
        if (!first) {
            out.append(',');
        }
        newline(depth, out);
        return false;
    }

    private static StringBuilder newline(int depth, StringBuilder out) {
        out.append('\n');
        for (int i = depth * INDENT; i > 0; i--) {
            out.append(' ');
        }
        return out;
    }
}
