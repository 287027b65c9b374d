package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Explicit caps checked on top of the policy's own call bound.
 *
 * @param maxCallsPerScenario the most transport calls one scenario run may make, or {@code null}
 * @param maxTokensPerScenario the most tokens one scenario run may spend, retries and repairs included, or
 *                             {@code null}
 * @param maxTokensPerOp       the most tokens one op may spend, retries and repairs included, or {@code null}
 * @param prices               what a million tokens cost, by the request's {@code model} ({@link #ANY_MODEL} for
 *                             any other); empty when no price table is declared
 */
@API(status = INTERNAL, since = "0.1.0")
public record Budget(Integer maxCallsPerScenario, Long maxTokensPerScenario, Long maxTokensPerOp,
        Map<String, Price> prices, Integer maxToolCallsPerOp, Integer maxIdenticalToolCalls) {

    public static final Budget NONE = new Budget(null);

    /** A budget without tool caps. */
    public Budget(Integer maxCallsPerScenario, Long maxTokensPerScenario, Long maxTokensPerOp,
            Map<String, Price> prices) {
        this(maxCallsPerScenario, maxTokensPerScenario, maxTokensPerOp, prices, null, null);
    }

    /** The {@code budget.prices} key that prices every model without a row of its own. */
    public static final String ANY_MODEL = "*";

    public Budget {
        prices = Map.copyOf(prices);
    }

    /** A budget with a call cap only. */
    public Budget(Integer maxCallsPerScenario) {
        this(maxCallsPerScenario, null, null, Map.of());
    }

    /** The price of {@code model}'s tokens: its own row, else the {@code "*"} row, else {@code null}. */
    public Price priceOf(String model) {
        Price own = model == null ? null : prices.get(model);
        return own != null ? own : prices.get(ANY_MODEL);
    }

    /**
     * One row of {@code budget.prices}.
     *
     * @param inputPerMillion  the cost of a million prompt (input) tokens
     * @param outputPerMillion the cost of a million completion (output) tokens
     */
    public record Price(BigDecimal inputPerMillion, BigDecimal outputPerMillion) {
        public Price {
            Objects.requireNonNull(inputPerMillion, "inputPerMillion");
            Objects.requireNonNull(outputPerMillion, "outputPerMillion");
        }
    }
}
