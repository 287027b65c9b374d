package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.config.Budget;
import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.limits.Tokens;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TokenBudgetTest {

    private static final Policy POLICY = new Policy(3, Duration.ofMillis(10), Duration.ofSeconds(5),
            Duration.ofSeconds(30), new Policy.Quota(dev.resilienceharness.policy.RetryAfterHandling.RETRY_ONCE,
                    Duration.ofSeconds(60)), new Policy.Schema(1), new Policy.SlowFirstToken(Duration.ofSeconds(2)), 4);

    private static CallRecord call(int i, String op, CallRecord.Result result, long tokens) {
        return new CallRecord(i, op, 0, "none", result, 0, null, false, 0, null, 0, null, 0,
                new Tokens(tokens, 0), null, null);
    }

    private static RunTrace trace(CallRecord... calls) {
        Scenario s = new Scenario("s", List.of("plan", "patch"), List.of(), Expectations.NONE,
                POLICY, 1);
        return new RunTrace(s, List.of(), List.of(calls), List.of(), Duration.ZERO, List.of(), null);
    }

    private static Budget budget(Long perScenario, Long perOp) {
        return new Budget(null, perScenario, perOp, Map.of());
    }

    @Test
    void withinBothCapsNothingIsReported() {
        RunTrace t = trace(call(0, "plan", CallRecord.Result.OK, 100), call(1, "patch", CallRecord.Result.OK, 100));
        assertEquals(List.of(), new TokenBudget(budget(200L, 100L)).check(t));
        assertEquals(200, TokenBudget.total(t));
    }

    @Test
    void everyAnsweredCallOfAnOpCountsRepairsIncluded() {
        RunTrace t = trace(call(0, "plan", CallRecord.Result.SCHEMA, 80), call(1, "plan", CallRecord.Result.OK, 80),
                call(2, "patch", CallRecord.Result.OK, 10));
        List<Violation> v = new TokenBudget(budget(null, 100L)).check(t);
        assertEquals(1, v.size());
        assertEquals("s [budget] op 'plan': 160 tokens for the op, retries and repairs included;"
                + " budget.max_tokens_per_op is 100 (bound 100 tokens, actual 160 tokens). Spend fewer tokens (fewer"
                + " retries and repairs, shorter requests) or raise the budget", v.get(0).line());
        assertEquals(Map.of("plan", 160L, "patch", 10L), TokenBudget.byOp(t));
    }

    @Test
    void theScenarioCapIsOnTheWholeRun() {
        RunTrace t = trace(call(0, "plan", CallRecord.Result.OK, 100), call(1, "patch", CallRecord.Result.OK, 101));
        List<Violation> v = new TokenBudget(budget(200L, null)).check(t);
        assertEquals("201 tokens", v.get(0).actual());
        assertEquals(Invariant.BUDGET, v.get(0).invariant());
        assertEquals(List.of(), new TokenBudget(Budget.NONE).check(t));
    }
}
