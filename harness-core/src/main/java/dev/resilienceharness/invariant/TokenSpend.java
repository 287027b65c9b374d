package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Budget;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apiguardian.api.API;

/**
 * What one scenario run spent, as the reports show it against the budget: its tokens, what they cost by
 * {@code budget.prices}, and how many calls the {@code provider_limits} refused.
 *
 * @param tokens         tokens of every answered call, retries and repairs included
 * @param tokenBudget    {@code budget.max_tokens_per_scenario}, or {@code null}
 * @param opTokenBudget  {@code budget.max_tokens_per_op}, or {@code null}
 * @param cost           what the tokens cost by {@code budget.prices}, or {@code null} without a price table
 * @param unpricedTokens tokens of calls whose model has no price (counted in {@code tokens}, not in {@code cost})
 * @param refused        calls the limits answered with a 429
 */
@API(status = INTERNAL, since = "0.1.0")
public record TokenSpend(long tokens, Long tokenBudget, Long opTokenBudget, BigDecimal cost, long unpricedTokens,
        int refused) {

    /** Digits of a cost after the point: a millionth of the price table's unit. */
    static final int COST_SCALE = 6;

    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    /**
     * The spend of {@code trace} under {@code budget}; {@code null} when the scenario has neither limits nor a token
     * budget nor prices, so that the reports of runs that count no tokens stay as they were.
     */
    public static TokenSpend of(RunTrace trace, Budget budget) {
        boolean counted = !trace.scenario().limits().limitsNothing() || budget.maxTokensPerScenario() != null
                || budget.maxTokensPerOp() != null || !budget.prices().isEmpty();
        if (!counted) {
            return null;
        }
        long tokens = 0;
        long unpriced = 0;
        int refused = 0;
        BigDecimal cost = budget.prices().isEmpty() ? null : BigDecimal.ZERO;
        for (CallRecord call : trace.calls()) {
            tokens += call.tokens().total();
            if (call.limit() != null) {
                refused++;
            }
            if (cost != null && call.tokens().total() > 0) {
                Budget.Price price = budget.priceOf(call.model());
                if (price == null) {
                    unpriced += call.tokens().total();
                } else {
                    cost = cost.add(price.inputPerMillion().multiply(BigDecimal.valueOf(call.tokens().input())))
                            .add(price.outputPerMillion().multiply(BigDecimal.valueOf(call.tokens().output())));
                }
            }
        }
        if (cost != null) {
            cost = cost.divide(MILLION, COST_SCALE, RoundingMode.HALF_EVEN);
        }
        return new TokenSpend(tokens, budget.maxTokensPerScenario(), budget.maxTokensPerOp(), cost, unpriced, refused);
    }
}
