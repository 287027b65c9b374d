package dev.resilienceharness.config;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Scenarios that share one endpoint share its limits: every member of a pool must end up with the same ones. */
final class PoolCheck {

    private PoolCheck() {
    }

    /**
     * @param limitsNodes each scenario's own {@code provider_limits} node, or {@code null} where it has none
     * @param scenarios   the scenarios with their effective limits, in the same order
     */
    static void check(NodeReader r, YamlNode.Mapping top, List<YamlNode> limitsNodes, List<Scenario> scenarios)
            throws ConfigException {
        Map<String, Scenario> first = new HashMap<>();
        for (int i = 0; i < scenarios.size(); i++) {
            Scenario s = scenarios.get(i);
            String pool = s.limits().pool();
            if (pool == null) {
                continue;
            }
            Scenario before = first.putIfAbsent(pool, s);
            if (before != null && !before.limits().equals(s.limits())) {
                YamlNode at = limitsNodes.get(i) != null ? limitsNodes.get(i) : top.get("provider_limits");
                String path = limitsNodes.get(i) != null ? NodeReader.index("scenarios", i) + ".provider_limits"
                        : "provider_limits";
                throw r.error(at != null ? at : top, path, ConfigMessages.poolLimitsDiffer(s.name(), pool,
                        before.name()));
            }
        }
    }
}
