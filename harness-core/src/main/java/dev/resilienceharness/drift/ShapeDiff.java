package dev.resilienceharness.drift;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The shape of two answers compared: paths one has and the other lacks, and paths whose JSON type differs. Values
 * are not compared (free text and counts change from one answer to the next); array elements are compared by
 * index.
 */
final class ShapeDiff {

    private ShapeDiff() {
    }

    /** The shape changes from {@code recorded} to {@code live}, in document order. */
    static List<Change> between(JsonNode recorded, JsonNode live) {
        List<Change> out = new ArrayList<>();
        walk("", recorded, live, out);
        return out;
    }

    private static void walk(String path, JsonNode recorded, JsonNode live, List<Change> out) {
        String where = path.isEmpty() ? "$" : path;
        String was = DriftMessages.kind(recorded);
        String is = DriftMessages.kind(live);
        if (!was.equals(is)) {
            out.add(new Change(ChangeKind.TYPE_CHANGED, where, was, is));
            return;
        }
        if (recorded.isObject()) {
            for (Map.Entry<String, JsonNode> e : recorded.properties()) {
                JsonNode other = live.get(e.getKey());
                String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                if (other == null) {
                    out.add(new Change(ChangeKind.REMOVED, child, DriftMessages.kind(e.getValue()), null));
                } else {
                    walk(child, e.getValue(), other, out);
                }
            }
            for (Map.Entry<String, JsonNode> e : live.properties()) {
                if (!recorded.has(e.getKey())) {
                    String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                    out.add(new Change(ChangeKind.ADDED, child, null, DriftMessages.kind(e.getValue())));
                }
            }
        } else if (recorded.isArray()) {
            int n = Math.max(recorded.size(), live.size());
            for (int i = 0; i < n; i++) {
                String child = path + "[" + i + "]";
                if (i >= live.size()) {
                    out.add(new Change(ChangeKind.REMOVED, child, DriftMessages.kind(recorded.get(i)), null));
                } else if (i >= recorded.size()) {
                    out.add(new Change(ChangeKind.ADDED, child, null, DriftMessages.kind(live.get(i))));
                } else {
                    walk(child, recorded.get(i), live.get(i), out);
                }
            }
        }
    }
}
