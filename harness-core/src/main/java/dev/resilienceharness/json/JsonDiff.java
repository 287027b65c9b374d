package dev.resilienceharness.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/** The JSON paths at which two trees differ, for messages a person reads ("messages[0].content"). */
@API(status = INTERNAL, since = "0.1.0")
public final class JsonDiff {

    private JsonDiff() {
    }

    /** Every path where {@code a} and {@code b} differ, in document order; empty when they are equal. */
    public static List<String> paths(JsonNode a, JsonNode b) {
        List<String> out = new ArrayList<>();
        walk("", a, b, out);
        return out;
    }

    private static void walk(String path, JsonNode a, JsonNode b, List<String> out) {
        if (a == null || b == null) {
            if (a != b) {
                out.add(path.isEmpty() ? "$" : path);
            }
            return;
        }
        if (a.isObject() && b.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = a.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                walk(child(path, e.getKey()), e.getValue(), b.get(e.getKey()), out);
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = b.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!a.has(e.getKey())) {
                    out.add(child(path, e.getKey()));
                }
            }
            return;
        }
        if (a.isArray() && b.isArray()) {
            int n = Math.max(a.size(), b.size());
            for (int i = 0; i < n; i++) {
                walk(path + "[" + i + "]", i < a.size() ? a.get(i) : null, i < b.size() ? b.get(i) : null, out);
            }
            return;
        }
        if (!a.equals(b)) {
            out.add(path.isEmpty() ? "$" : path);
        }
    }

    private static String child(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
