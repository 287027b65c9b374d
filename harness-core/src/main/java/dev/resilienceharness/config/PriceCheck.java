package dev.resilienceharness.config;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** With a price table, every model a declared request names has a price: its own row or the {@code "*"} row. */
final class PriceCheck {

    private PriceCheck() {
    }

    static void check(NodeReader r, YamlNode.Mapping top, Budget budget, Map<String, ObjectNode> requests)
            throws ConfigException {
        if (budget.prices().isEmpty()) {
            return;
        }
        for (Map.Entry<String, ObjectNode> e : requests.entrySet()) {
            var model = e.getValue().get("model");
            String name = model != null && model.isString() ? model.asString() : null;
            if (budget.priceOf(name) == null) {
                YamlNode.Mapping b = (YamlNode.Mapping) top.get("budget");
                YamlNode.Entry at = b.entry("prices");
                throw r.error(at, "budget.prices", ConfigMessages.unpricedModel(name, e.getKey()));
            }
        }
    }
}
