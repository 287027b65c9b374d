package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.CanonicalJson;
import dev.resilienceharness.json.JsonDiff;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.trace.RunTrace;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Invariant 2, replay determinism: N runs of a scenario on fresh loop and store instances, volatile response
 * paths randomised per run, give identical outcome lists once volatile paths are removed (compared as
 * canonical JSON). A difference is shown at the first JSON path where a run departs from run 1.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ReplayDeterminism {

    private final VolatilePaths volatilePaths;

    public ReplayDeterminism(VolatilePaths volatilePaths) {
        this.volatilePaths = volatilePaths;
    }

    /** The outcome list as compared: canonical JSON with volatile paths removed from each value. */
    public ArrayNode comparable(List<Outcome> outcomes) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (Outcome o : outcomes) {
            Outcome stripped = o.value() == null ? o : o.withValue(volatilePaths.strippedResponse(o.value()));
            list.add(stripped.toJson());
        }
        return list;
    }

    /** The violations across {@code runs} (the first is the reference); empty when all agree. */
    public List<Violation> check(List<RunTrace> runs) {
        List<Violation> out = new ArrayList<>();
        if (runs.size() < 2) {
            return out;
        }
        ArrayNode first = comparable(runs.get(0).outcomes());
        for (int r = 1; r < runs.size(); r++) {
            ArrayNode other = comparable(runs.get(r).outcomes());
            if (CanonicalJson.sameText(first, other)) {
                continue;
            }
            List<String> paths = JsonDiff.paths(first, other);
            String path = paths.isEmpty() ? "$" : paths.get(0);
            String op = opAt(runs.get(0).outcomes(), path);
            out.add(new Violation(Invariant.DETERMINISM, runs.get(0).scenario().name(), op, "identical outcomes",
                    paths.size() + (paths.size() == 1 ? " path differs" : " paths differ"),
                    Messages.nondeterministic(r + 1, "outcomes" + path, shown(first, path), shown(other, path)),
                    Messages.HINT_DETERMINISM));
            break;
        }
        return out;
    }

    private static String opAt(List<Outcome> outcomes, String path) {
        if (path.startsWith("[")) {
            int end = path.indexOf(']');
            int i = Integer.parseInt(path.substring(1, end));
            return i < outcomes.size() ? outcomes.get(i).op() : null;
        }
        return null;
    }

    /** The value at a diff path, in canonical JSON, shortened for a console line. */
    private static String shown(JsonNode root, String path) {
        JsonNode node = root;
        for (String part : path.replace("[", ".[").split("\\.")) {
            if (part.isEmpty() || node == null) {
                continue;
            }
            node = part.startsWith("[") ? node.get(Integer.parseInt(part.substring(1, part.length() - 1)))
                    : node.get(part);
        }
        String text = node == null ? "(absent)" : CanonicalJson.write(node);
        return text.length() > 120 ? text.substring(0, 117) + "..." : text;
    }
}
