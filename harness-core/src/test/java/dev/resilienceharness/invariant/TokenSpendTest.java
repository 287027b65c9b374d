package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.resilienceharness.config.Budget;
import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.ProviderLimits;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.limits.Tokens;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TokenSpendTest {

    private static final Policy POLICY = new Policy(3, Duration.ofMillis(10), Duration.ofSeconds(5),
            Duration.ofSeconds(30), new Policy.Quota(dev.resilienceharness.policy.RetryAfterHandling.RETRY_ONCE,
                    Duration.ofSeconds(60)), new Policy.Schema(1), new Policy.SlowFirstToken(Duration.ofSeconds(2)), 4);

    private static CallRecord call(int i, String model, Tokens tokens, String limit) {
        return new CallRecord(i, "plan", 0, "none", limit == null ? CallRecord.Result.OK : CallRecord.Result.QUOTA,
                0, null, false, 0, null, 0, null, 0, tokens, limit, model);
    }

    private static RunTrace trace(ProviderLimits limits, CallRecord... calls) {
        Scenario s = new Scenario("s", List.of("plan"), List.of(), Expectations.NONE, POLICY, 1, limits);
        return new RunTrace(s, List.of(), List.of(calls), List.of(), Duration.ZERO, List.of(), null);
    }

    @Test
    void aScenarioWithoutLimitsOrTokenBudgetCountsNothing() {
        assertNull(TokenSpend.of(trace(ProviderLimits.NONE, call(0, "m", new Tokens(5, 5), null)), Budget.NONE));
    }

    @Test
    void pricesTurnInputAndOutputTokensIntoACost() {
        Budget budget = new Budget(null, 5000L, null, Map.of("gpt-4o-mini",
                new Budget.Price(new BigDecimal("0.15"), new BigDecimal("0.60")), Budget.ANY_MODEL,
                new Budget.Price(new BigDecimal("1"), new BigDecimal("4"))));
        TokenSpend spend = TokenSpend.of(trace(ProviderLimits.NONE, call(0, "gpt-4o-mini", new Tokens(1000, 500), null),
                call(1, "other", new Tokens(100, 100), null), call(2, "gpt-4o-mini", Tokens.NONE,
                        CallRecord.RATE_LIMIT)), budget);
        // 1000 * 0.15 + 500 * 0.60 = 450, + 100 * 1 + 100 * 4 = 500: 950 per million.
        assertEquals(new TokenSpend(1700, 5000L, null, new BigDecimal("0.000950"), 0, 1), spend);
    }

    @Test
    void tokensOfAModelWithoutAPriceAreCountedButNotCosted() {
        Budget budget = new Budget(null, null, null, Map.of("gpt-4o", new Budget.Price(BigDecimal.ONE,
                BigDecimal.ONE)));
        TokenSpend spend = TokenSpend.of(trace(ProviderLimits.NONE, call(0, "gpt-4o", new Tokens(10, 10), null),
                call(1, null, new Tokens(7, 0), null)), budget);
        assertEquals(27, spend.tokens());
        assertEquals(7, spend.unpricedTokens());
        assertEquals(new BigDecimal("0.000020"), spend.cost());
    }

    @Test
    void limitsAloneAreEnoughToCountTokens() {
        TokenSpend spend = TokenSpend.of(trace(new ProviderLimits(2, null, null, null, null),
                call(0, "m", new Tokens(3, 4), null)), Budget.NONE);
        assertEquals(new TokenSpend(7, null, null, null, 0, 0), spend);
    }
}
