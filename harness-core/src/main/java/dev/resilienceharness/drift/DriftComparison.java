package dev.resilienceharness.drift;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.config.DriftSettings;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.transport.ToolCallSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Compares a live answer with its cassette on what a loop depends on: the JSON shape (paths added or removed, type
 * changes), {@code finish_reason} / {@code stop_reason}, whether and which tool is called and whether its arguments
 * validate against the request's schema, {@code usage} growth beyond a tolerance, and first-token and total latency
 * beyond a tolerance. Free text, other values, the {@code volatile} paths and the {@code drift.ignore} paths are
 * left out. Thread-safe.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class DriftComparison {

    private final DriftSettings settings;
    private final VolatilePaths left;
    private final ToolCallSchema schemas = new ToolCallSchema();

    /**
     * @param settings      the {@code drift:} block
     * @param volatilePaths the config's {@code volatile} paths, left out as the cassettes leave them out
     */
    public DriftComparison(DriftSettings settings, List<String> volatilePaths) {
        this.settings = Objects.requireNonNull(settings, "settings");
        List<String> all = new ArrayList<>(volatilePaths);
        all.addAll(settings.ignore());
        this.left = VolatilePaths.of(all);
    }

    /**
     * The changes from the cassette's answer to the live one for {@code request}, semantic ones first; empty when
     * nothing a loop depends on changed. A shape change at a path a semantic change already names is not repeated.
     *
     * @param recordedTiming the cassette's timing, or {@code null}
     * @param liveTiming     the live call's timing, or {@code null}
     */
    public List<Change> compare(JsonNode request, JsonNode recorded, Timing recordedTiming, JsonNode live,
            Timing liveTiming) {
        JsonNode was = left.stripResponse(recorded.deepCopy());
        JsonNode is = left.stripResponse(live.deepCopy());
        List<Change> changes = new ArrayList<>();
        finishReasons(was, is, changes);
        toolCalls(request, was, is, changes);
        usage("usage", was.path("usage"), is.path("usage"), changes);
        latency(recordedTiming, liveTiming, changes);
        Set<String> named = new HashSet<>();
        changes.forEach(c -> named.add(c.path()));
        for (Change c : ShapeDiff.between(was, is)) {
            if (!named.contains(c.path())) {
                changes.add(c);
            }
        }
        return List.copyOf(changes);
    }

    private static void finishReasons(JsonNode was, JsonNode is, List<Change> out) {
        JsonNode a = was.get("choices");
        JsonNode b = is.get("choices");
        if (a != null && a.isArray() && b != null && b.isArray()) {
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                reason("choices[" + i + "].finish_reason", a.get(i).get("finish_reason"),
                        b.get(i).get("finish_reason"), out);
            }
            return;
        }
        reason("stop_reason", was.get("stop_reason"), is.get("stop_reason"), out);
        if (was.has("output")) {
            reason("status", was.get("status"), is.get("status"), out);
        }
    }

    /** Two reasons differ when both are text and the text differs; a missing or retyped one is a shape change. */
    private static void reason(String path, JsonNode a, JsonNode b, List<Change> out) {
        if (a != null && b != null && a.isString() && b.isString() && !a.asString().equals(b.asString())) {
            out.add(new Change(ChangeKind.FINISH_REASON, path, a.asString(), b.asString()));
        }
    }

    private void toolCalls(JsonNode request, JsonNode was, JsonNode is, List<Change> out) {
        List<ToolCalls.Call> a = ToolCalls.in(was);
        List<ToolCalls.Call> b = ToolCalls.in(is);
        if (!a.isEmpty() && b.isEmpty()) {
            out.add(new Change(ChangeKind.TOOL_CALL_GONE, a.get(0).container(), a.get(0).name(), null));
            return;
        }
        if (a.isEmpty() && !b.isEmpty()) {
            out.add(new Change(ChangeKind.TOOL_CALL_NEW, b.get(0).container(), null, b.get(0).name()));
        }
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).name().equals(b.get(i).name())) {
                out.add(new Change(ChangeKind.TOOL_CHANGED, b.get(i).namePath(), a.get(i).name(), b.get(i).name()));
            }
        }
        if (b.isEmpty()) {
            return;
        }
        String problem = schemas.problem(request, is);
        if (problem != null && schemas.problem(request, was) == null) {
            int space = problem.indexOf(' ');
            String path = space > 0 && problem.startsWith(b.get(0).container().split("\\[")[0])
                    ? problem.substring(0, space) : b.get(0).path();
            out.add(new Change(ChangeKind.ARGUMENTS_INVALID, path, null, problem));
        }
    }

    /** Each count under {@code usage} that grew beyond the tolerance; counts only one side has are shape changes. */
    private void usage(String path, JsonNode was, JsonNode is, List<Change> out) {
        if (was.isObject() && is.isObject()) {
            for (Map.Entry<String, JsonNode> e : was.properties()) {
                JsonNode other = is.get(e.getKey());
                if (other != null) {
                    usage(path + "." + e.getKey(), e.getValue(), other, out);
                }
            }
        } else if (was.isNumber() && is.isNumber()) {
            double recorded = was.asDouble();
            double live = is.asDouble();
            if (live > recorded * settings.usageFactor() && live > recorded) {
                out.add(new Change(ChangeKind.USAGE_GROWTH, path, was.toString(), is.toString()));
            }
        }
    }

    private void latency(Timing recorded, Timing live, List<Change> out) {
        if (recorded == null || live == null) {
            return;
        }
        slower(ChangeKind.FIRST_TOKEN_SLOWER, "timing.first_token_ms", recorded.firstTokenMs(), live.firstTokenMs(),
                out);
        slower(ChangeKind.TOTAL_SLOWER, "timing.total_ms", recorded.totalMs(), live.totalMs(), out);
    }

    /** Slower counts when beyond both the factor and the margin, so a few milliseconds of jitter never does. */
    private void slower(ChangeKind kind, String path, Long recorded, Long live, List<Change> out) {
        if (recorded == null || live == null) {
            return;
        }
        if (live > recorded * settings.latencyFactor() && live - recorded > settings.latencyMargin().toMillis()) {
            out.add(new Change(kind, path, recorded.toString(), live.toString()));
        }
    }
}
