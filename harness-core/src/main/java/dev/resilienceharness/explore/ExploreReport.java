package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Durations;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.tool.ToolFault;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The explore goal's {@code explore.json}: a summary (scenarios, plans, counterexamples, seed), then per scenario
 * the plans run, why the search ended, and each counterexample with its faults, violation lines and yaml block;
 * with provider limits searched, the limit values found ({@link #json(List, long, List)}).
 *
 * <pre>
 * {"summary": {"scenarios": 1, "plans": 10000, "counterexamples": 1, "seed": 1},
 *  "scenarios": [{"name": "two", "plans": 10000, "ended": "plan_budget", "counterexamples": [
 *    {"name": "explore-two-budget-1", "invariant": "budget", "faults": ["quota"], "found_in": "singles",
 *     (and "tool_faults": {"refund": ["timeout_after_commit"]} when it faults a tool)
 *     "found_at": 4, "violations": ["explore-two-budget-1 [budget] op 'plan': ..."], "yaml": "  - name: ..."}]}]}
 * </pre>
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ExploreReport {

    /**
     * What a report shows of an earlier exploration.
     *
     * @param plans           plans run in all
     * @param counterexamples each counterexample as a paste-ready yaml block, its violation lines first as comments
     */
    public record Saved(int plans, List<String> counterexamples) {
        public Saved {
            counterexamples = List.copyOf(counterexamples);
        }
    }

    private ExploreReport() {
    }

    /**
     * Reads an {@code explore.json} this class wrote, or {@code null} when there is no such file.
     *
     * @throws IOException when the file cannot be read or is not an exploration report
     */
    public static Saved read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            JsonNode root = Json.readTree(Files.readAllBytes(file));
            List<String> blocks = new ArrayList<>();
            for (JsonNode s : root.path("scenarios")) {
                for (JsonNode c : s.path("counterexamples")) {
                    StringBuilder text = new StringBuilder();
                    c.path("violations").forEach(v -> text.append("# ").append(v.asString()).append('\n'));
                    text.append(c.path("yaml").asString());
                    blocks.add(text.toString());
                }
            }
            for (JsonNode l : root.path("limits")) {
                StringBuilder text = new StringBuilder();
                l.path("violations").forEach(v -> text.append("# ").append(v.asString()).append('\n'));
                text.append(l.path("yaml").asString());
                blocks.add(text.toString());
            }
            return new Saved((int) root.path("summary").path("plans").asLong(), blocks);
        } catch (JacksonException e) {
            // Not JSON, or JSON of another shape.
            throw new IOException(e.getOriginalMessage(), e);
        }
    }

    /** The report of {@code results}, searched with {@code seed}. */
    public static ObjectNode json(List<ExplorationResult> results, long seed) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        ObjectNode summary = root.putObject("summary");
        summary.put("scenarios", results.size());
        summary.put("plans", results.stream().mapToLong(ExplorationResult::plans).sum());
        summary.put("counterexamples", results.stream().mapToInt(r -> r.counterexamples().size()).sum());
        summary.put("seed", seed);
        ArrayNode scenarios = root.putArray("scenarios");
        for (ExplorationResult r : results) {
            ObjectNode s = scenarios.addObject();
            s.put("name", r.scenario().name());
            s.put("plans", r.plans());
            s.put("ended", r.ended().name().toLowerCase(Locale.ROOT));
            ArrayNode list = s.putArray("counterexamples");
            for (Counterexample c : r.counterexamples()) {
                ObjectNode node = list.addObject();
                node.put("name", c.name());
                node.put("invariant", c.invariant().id());
                ArrayNode faults = node.putArray("faults");
                c.plan().forEach(fault -> faults.add(fault(fault)));
                if (!c.toolFaults().isEmpty()) {
                    // As the yaml writes them: {"refund": ["none", "timeout_after_commit"]}, slow as {"slow": "30s"}.
                    ObjectNode tools = node.putObject("tool_faults");
                    c.toolFaults().forEach((tool, faultsOfTool) -> {
                        ArrayNode entries = tools.putArray(tool);
                        faultsOfTool.forEach(tf -> entries.add(toolFault(tf)));
                    });
                }
                node.put("found_in", c.foundIn().name().toLowerCase(Locale.ROOT));
                node.put("found_at", c.foundAt());
                ArrayNode violations = node.putArray("violations");
                for (Violation v : c.violations()) {
                    violations.add(v.line());
                }
                node.put("yaml", c.yaml());
            }
        }
        return root;
    }

    /**
     * The report of {@code results}, searched with {@code seed}, and of the provider limits searched: {@code limits}
     * lists each limit value found, the highest {@code requests_per_minute} or the smallest {@code token_quota} under
     * which the scenario still breaks an invariant, with that invariant and its reason (the first violation's
     * message), every violation line and the yaml block to paste; the summary counts them.
     *
     * <pre>
     * "limits": [{"scenario": "storm", "name": "explore-storm-requests-per-minute-2", "limit": "requests_per_minute",
     *   "value": 2, "tried": 1, "invariant": "budget", "reason": "retried 0 ms after a rate-limit 429 ...",
     *   "violations": ["storm [budget] op 'test': ..."], "yaml": "  - name: ..."}]
     * </pre>
     */
    public static ObjectNode json(List<ExplorationResult> results, long seed, List<LimitSearch.Finding> limits) {
        ObjectNode root = json(results, seed);
        ((ObjectNode) root.get("summary")).put("limits", limits.size());
        ArrayNode list = root.putArray("limits");
        for (LimitSearch.Finding f : limits) {
            ObjectNode node = list.addObject();
            node.put("scenario", f.scenario());
            node.put("name", f.name());
            node.put("limit", f.limit());
            node.put("value", f.value());
            node.put("tried", f.tried());
            Violation first = f.violations().get(0); // a value is found only when the run breaks an invariant
            node.put("invariant", first.invariant().id());
            node.put("reason", first.message());
            ArrayNode violations = node.putArray("violations");
            for (Violation v : f.violations()) {
                violations.add(v.line());
            }
            node.put("yaml", f.yaml());
        }
        return root;
    }

    /** A fault as its yaml form in JSON: {@code "timeout"} or {@code {"quota": {"retry_after": "2"}}}. */
    /**
     * One tool fault as the yaml writes it, every setting kept: {@code "timeout"}, {@code {"slow": "5s", "progress": 2}},
     * {@code {"protocol_error": -32602}}, {@code {"rate_limited": "3s"}}.
     */
    static JsonNode toolFault(ToolFault tf) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        boolean bare = tf.equals(ToolFault.of(tf.kind()));
        return switch (tf.kind()) {
            case SLOW -> {
                ObjectNode slow = f.objectNode().put("slow", Durations.format(tf.delay()));
                yield tf.progress() > 0 ? slow.put("progress", tf.progress()) : slow;
            }
            case PROTOCOL_ERROR -> bare ? f.stringNode(tf.id()) : f.objectNode().put("protocol_error", tf.code());
            case RATE_LIMITED -> bare ? f.stringNode(tf.id())
                    : f.objectNode().put("rate_limited", Durations.format(tf.delay()));
            default -> f.stringNode(tf.id());
        };
    }

    private static JsonNode fault(Fault fault) {
        Object yaml = fault.toYaml();
        if (yaml instanceof String bare) {
            return JsonNodeFactory.instance.stringNode(bare);
        }
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        for (Map.Entry<?, ?> kind : ((Map<?, ?>) yaml).entrySet()) {
            ObjectNode settings = node.putObject(kind.getKey().toString());
            for (Map.Entry<?, ?> setting : ((Map<?, ?>) kind.getValue()).entrySet()) {
                Object value = setting.getValue();
                String key = setting.getKey().toString();
                if (value instanceof Number n) {
                    settings.put(key, n.longValue());
                } else {
                    settings.put(key, String.valueOf(value));
                }
            }
        }
        return node;
    }
}
