package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.limits.Tokens;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LimitRetriesTest {

    private static final Policy POLICY = new Policy(3, Duration.ofMillis(10), Duration.ofSeconds(5),
            Duration.ofSeconds(30), new Policy.Quota(dev.resilienceharness.policy.RetryAfterHandling.RETRY_ONCE,
                    Duration.ofSeconds(60)), new Policy.Schema(1), new Policy.SlowFirstToken(Duration.ofSeconds(2)), 4);

    private static final long MS = 1_000_000L;

    private static CallRecord limited(int i, String op, String limit, String retryAfter, long atMs, int incarnation) {
        return new CallRecord(i, op, 0, "none", CallRecord.Result.QUOTA, 429, retryAfter, false, atMs * MS, null,
                incarnation, null, 0, Tokens.NONE, limit, null);
    }

    private static CallRecord ok(int i, String op, long atMs, int incarnation) {
        return new CallRecord(i, op, 0, "none", CallRecord.Result.OK, 0, null, false, atMs * MS, null, incarnation,
                null, 0, new Tokens(10, 10), null, null);
    }

    private static List<String> check(CallRecord... calls) {
        Scenario s = new Scenario("s", List.of("plan", "patch"), List.of(), Expectations.NONE,
                POLICY, 1);
        return new LimitRetries().check(new RunTrace(s, List.of(), List.of(calls), List.of(), Duration.ZERO,
                List.of(), null)).stream().map(Violation::line).toList();
    }

    @Test
    void aRetryAfterTheStatedDelayIsFine() {
        assertEquals(List.of(), check(limited(0, "plan", CallRecord.RATE_LIMIT, "2", 0, 0), ok(1, "plan", 2000, 0)));
    }

    @Test
    void aRetrySoonerThanTheStatedDelayIsABudgetViolationOncePerOp() {
        assertEquals(List.of("s [budget] op 'plan': retried 500 ms after a rate-limit 429 with Retry-After \"2\","
                + " which states 2000 ms (bound at least 2000 ms, actual 500 ms). Wait the delay a rate-limit 429"
                + " states (QuotaExhausted.delay(run.now())) with run.sleeper() before calling again; a retry at once"
                + " only meets the full window again"),
                check(limited(0, "plan", CallRecord.RATE_LIMIT, "2", 0, 0),
                        limited(1, "plan", CallRecord.RATE_LIMIT, "2", 500, 0), ok(2, "plan", 700, 0)));
    }

    @Test
    void aScriptedQuotaIsNotJudgedHere() {
        assertEquals(List.of(), check(limited(0, "plan", null, "2", 0, 0), ok(1, "plan", 0, 0)));
    }

    @Test
    void aFreshProcessIsNotJudgedByTheOldOnesRateLimit() {
        assertEquals(List.of(), check(limited(0, "plan", CallRecord.RATE_LIMIT, "2", 0, 0), ok(1, "plan", 0, 1)));
    }

    @Test
    void anyCallAfterInsufficientQuotaIsABudgetViolation() {
        assertEquals(List.of("s [budget] op 'patch': 1 call after the token quota was spent (insufficient_quota at op"
                + " 'plan') (bound 0 calls after insufficient_quota, actual 1 call). Stop the run when a 429 says"
                + " insufficient_quota (QuotaExhausted.kind() INSUFFICIENT_QUOTA): no wait brings the quota back, so"
                + " keep the finished work and return it"),
                check(limited(0, "plan", CallRecord.INSUFFICIENT_QUOTA, null, 0, 0), ok(1, "patch", 10, 0)));
        assertEquals(List.of(), check(ok(0, "plan", 0, 0), limited(1, "patch", CallRecord.INSUFFICIENT_QUOTA, null, 0,
                0)));
    }
}
