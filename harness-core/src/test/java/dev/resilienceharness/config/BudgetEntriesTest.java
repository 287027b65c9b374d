package dev.resilienceharness.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BudgetEntriesTest {

    private static final Path FILE = Path.of("conf", "resilience.yaml");
    private static final String F = FILE.toString();

    private static final String HEAD = """
            version: 1
            policy:
              max_total_wait: 5m
            requests:
              plan: {model: gpt-4o-mini, messages: []}
            scenarios: [{name: a, ops: [plan]}]
            """;

    static HarnessConfig load(String yaml) throws ConfigException {
        return ConfigLoader.load(FILE, yaml.getBytes(UTF_8));
    }

    static String error(String yaml) {
        return assertThrows(ConfigException.class, () -> load(yaml)).getMessage();
    }

    @Test
    void tokenCapsAndPricesAreRead() throws ConfigException {
        Budget b = load(HEAD + """
                budget:
                  max_calls_per_scenario: 20
                  max_tokens_per_scenario: 4000
                  max_tokens_per_op: 1500
                  prices:
                    gpt-4o-mini: {input: 0.15, output: 0.6}
                    "*": {input: 1, output: 2}
                """).budget();
        assertEquals(20, b.maxCallsPerScenario());
        assertEquals(4000L, b.maxTokensPerScenario());
        assertEquals(1500L, b.maxTokensPerOp());
        assertEquals(new Budget.Price(new BigDecimal("0.15"), new BigDecimal("0.6")), b.priceOf("gpt-4o-mini"));
        assertEquals(new Budget.Price(BigDecimal.ONE, new BigDecimal("2")), b.priceOf("other"));
    }

    @Test
    void aBudgetWithoutTokenKeysHasNoTokenCaps() throws ConfigException {
        Budget b = load(HEAD + "budget: {max_calls_per_scenario: 3}\n").budget();
        assertNull(b.maxTokensPerScenario());
        assertNull(b.maxTokensPerOp());
        assertNull(b.priceOf("gpt-4o-mini"));
        assertEquals(new Budget(3), b);
    }

    @Test
    void aTokenCapBelowOneIsRefused() {
        assertEquals(F + ":8:22: budget.max_tokens_per_op: expected an integer of at least 1, got 0",
                error(HEAD + "budget:\n  max_tokens_per_op: 0\n"));
    }

    @Test
    void anUnknownBudgetKeyIsNamed() {
        assertEquals(F + ":8:3: budget.max_token_per_scenario: unknown key 'max_token_per_scenario'; did you mean"
                + " 'max_tokens_per_scenario'? The keys allowed here are: max_calls_per_scenario,"
                + " max_tokens_per_scenario, max_tokens_per_op, prices, max_tool_calls_per_op, max_identical_tool_calls",
                error(HEAD + "budget:\n  max_token_per_scenario: 10\n"));
    }

    @Test
    void aPriceRowNeedsInputAndOutputAsPlainNonNegativeNumbers() {
        assertEquals(F + ":9:18: budget.prices.gpt-4o-mini.output: missing required key 'output': the cost of a"
                + " million output tokens, such as 0.60",
                error(HEAD + "budget:\n  prices:\n    gpt-4o-mini: {input: 0.15}\n"));
        assertEquals(F + ":9:40: budget.prices.gpt-4o-mini.output: expected a cost of at least 0 such as 0.15,"
                + " written as a plain number, got the number -1",
                error(HEAD + "budget:\n  prices:\n    gpt-4o-mini: {input: 0.15, output: -1}\n"));
        assertEquals(F + ":9:26: budget.prices.gpt-4o-mini.input: expected a cost of at least 0 such as 0.15,"
                + " written as a plain number, got the text '$1'",
                error(HEAD + "budget:\n  prices:\n    gpt-4o-mini: {input: $1, output: 1}\n"));
    }

    @Test
    void aModelTheRequestsNameWithoutAPriceIsAnError() {
        assertEquals(F + ":8:3: budget.prices: no price for model 'gpt-4o-mini' (requests.plan); add a row for it"
                + " or a \"*\" row for every other model",
                error(HEAD + "budget:\n  prices:\n    gpt-4o: {input: 2.5, output: 10}\n"));
    }
}
