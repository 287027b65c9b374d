package dev.resilienceharness.explore;

import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.invariant.Violation;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The explore goal's {@code explore.json}: a summary (scenarios, plans, counterexamples, seed), then per scenario
 * the plans run, why the search ended, and each counterexample with its faults, violation lines and yaml block.
 *
 * <pre>
 * {"summary": {"scenarios": 1, "plans": 10000, "counterexamples": 1, "seed": 1},
 *  "scenarios": [{"name": "two", "plans": 10000, "ended": "plan_budget", "counterexamples": [
 *    {"name": "explore-two-budget-1", "invariant": "budget", "faults": ["quota"], "found_in": "singles",
 *     "found_at": 4, "violations": ["explore-two-budget-1 [budget] op 'plan': ..."], "yaml": "  - name: ..."}]}]}
 * </pre>
 */
public final class ExploreReport {

    private ExploreReport() {
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

    /** A fault as its yaml form in JSON: {@code "timeout"} or {@code {"quota": {"retry_after": "2"}}}. */
    private static tools.jackson.databind.JsonNode fault(Fault fault) {
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
