package dev.resilienceharness.config;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads {@code budget:} strictly: call and token caps of at least 1, and a price table of decimal numbers. */
final class BudgetEntries {

    static final List<String> KEYS = List.of("max_calls_per_scenario", "max_tokens_per_scenario", "max_tokens_per_op",
            "prices", "max_tool_calls_per_op", "max_identical_tool_calls");
    static final List<String> PRICE_KEYS = List.of("input", "output");

    /** The most digits a token cap may have. */
    static final int MAX_TOKEN_DIGITS = 15;

    private BudgetEntries() {
    }

    static Budget read(NodeReader r, YamlNode v) throws ConfigException {
        YamlNode.Mapping m = r.mapping(v, "budget", "a mapping with max_calls_per_scenario, max_tokens_per_scenario,"
                + " max_tokens_per_op, prices, max_tool_calls_per_op and max_identical_tool_calls", KEYS);
        Integer calls = m.get("max_calls_per_scenario") == null ? null
                : r.integer(m.get("max_calls_per_scenario"), "budget.max_calls_per_scenario", 1);
        Long perScenario = m.get("max_tokens_per_scenario") == null ? null
                : tokens(r, m.get("max_tokens_per_scenario"), "budget.max_tokens_per_scenario");
        Long perOp = m.get("max_tokens_per_op") == null ? null
                : tokens(r, m.get("max_tokens_per_op"), "budget.max_tokens_per_op");
        Map<String, Budget.Price> prices = m.get("prices") == null ? Map.of() : prices(r, m.get("prices"));
        Integer toolCalls = m.get("max_tool_calls_per_op") == null ? null
                : r.integer(m.get("max_tool_calls_per_op"), "budget.max_tool_calls_per_op", 1);
        Integer identical = m.get("max_identical_tool_calls") == null ? null
                : r.integer(m.get("max_identical_tool_calls"), "budget.max_identical_tool_calls", 1);
        return new Budget(calls, perScenario, perOp, prices, toolCalls, identical);
    }

    static long tokens(NodeReader r, YamlNode v, String path) throws ConfigException {
        if (!(v instanceof YamlNode.Scalar s) || s.type() != YamlNode.ScalarType.INTEGER) {
            throw r.wrongType(v, path, "a whole number of tokens of at least 1, such as 4000", null);
        }
        String digits = s.text();
        if (digits.startsWith("-") || digits.chars().allMatch(c -> c == '0')) {
            throw r.error(v, path, ConfigMessages.integerTooSmall(1, digits));
        }
        if (digits.length() > MAX_TOKEN_DIGITS) {
            throw r.error(v, path, ConfigMessages.integerTooLong(MAX_TOKEN_DIGITS));
        }
        return Long.parseLong(digits);
    }

    private static Map<String, Budget.Price> prices(NodeReader r, YamlNode v) throws ConfigException {
        if (!(v instanceof YamlNode.Mapping m)) {
            throw r.wrongType(v, "budget.prices", "a mapping from model name (or \"*\") to {input: .., output: ..},"
                    + " the cost of a million tokens", "write {} for none");
        }
        Map<String, Budget.Price> prices = new LinkedHashMap<>();
        for (YamlNode.Entry e : m.entries()) {
            String path = NodeReader.child("budget.prices", e.key());
            if (e.key().isBlank()) {
                throw r.error(e, path, ConfigMessages.expected("a model name or \"*\"", "an empty text"));
            }
            YamlNode.Mapping row = r.mapping(e.value(), path, "a mapping with input and output, the cost of a"
                    + " million tokens", PRICE_KEYS);
            BigDecimal input = price(r, r.require(row, path, "input", "the cost of a million input tokens, such as"
                    + " 0.15"), NodeReader.child(path, "input"));
            BigDecimal output = price(r, r.require(row, path, "output", "the cost of a million output tokens, such"
                    + " as 0.60"), NodeReader.child(path, "output"));
            prices.put(e.key(), new Budget.Price(input, output));
        }
        return prices;
    }

    private static BigDecimal price(NodeReader r, YamlNode v, String path) throws ConfigException {
        String what = "a cost of at least 0 such as 0.15, written as a plain number";
        if (!(v instanceof YamlNode.Scalar s)
                || !(s.type() == YamlNode.ScalarType.INTEGER || s.type() == YamlNode.ScalarType.FLOAT)) {
            throw r.wrongType(v, path, what, null);
        }
        BigDecimal value;
        try {
            value = new BigDecimal(s.text());
        } catch (NumberFormatException e) {
            throw r.error(v, path, ConfigMessages.expected(what, v.describe()));
        }
        if (value.signum() < 0 || value.precision() - value.scale() > 12 || value.scale() > 12) {
            throw r.error(v, path, ConfigMessages.expected(what, v.describe()));
        }
        return value;
    }
}
