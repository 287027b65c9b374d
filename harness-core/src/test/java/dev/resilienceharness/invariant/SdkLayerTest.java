package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.Budget;
import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.limits.Tokens;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.policy.RetryAfterHandling;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The retry-stack audit on every budget and bounded_wait line that counts calls or waits an SDK made. */
class SdkLayerTest {

    private static final String SDK = "openai-java 4.105.0";
    private static final long MS = 1_000_000L;
    private static final Policy POLICY = new Policy(3, Duration.ofMillis(100), Duration.ofSeconds(5),
            Duration.ofSeconds(30), new Policy.Quota(RetryAfterHandling.RETRY_ONCE, Duration.ofSeconds(60)),
            new Policy.Schema(1), new Policy.SlowFirstToken(Duration.ofSeconds(2)), 4);

    /** A call of {@code op} at {@code atMs}; {@code sdkRetry} 0 when the loop made it, n for the SDK's n-th retry. */
    private static CallRecord call(int i, String op, CallRecord.Result result, int status, String retryAfter,
            boolean honourable, String limit, long atMs, int sdkRetry, Tokens tokens) {
        return new CallRecord(i, op, 0, "none", result, status, retryAfter, honourable, atMs * MS, null, 0, SDK,
                sdkRetry, tokens, limit, null);
    }

    private static CallRecord insufficient(int i, String op, long atMs, int sdkRetry) {
        return call(i, op, CallRecord.Result.QUOTA, 429, null, false, CallRecord.INSUFFICIENT_QUOTA, atMs, sdkRetry,
                Tokens.NONE);
    }

    private static CallRecord rateLimited(int i, String op, String retryAfter, long atMs, int sdkRetry) {
        return call(i, op, CallRecord.Result.QUOTA, 429, retryAfter, true, CallRecord.RATE_LIMIT, atMs, sdkRetry,
                Tokens.NONE);
    }

    private static CallRecord quota(int i, String op, String retryAfter, long atMs, int sdkRetry) {
        return call(i, op, CallRecord.Result.QUOTA, 429, retryAfter, true, null, atMs, sdkRetry, Tokens.NONE);
    }

    private static CallRecord failed(int i, String op, long atMs, int sdkRetry) {
        return call(i, op, CallRecord.Result.TRANSIENT, 503, null, false, null, atMs, sdkRetry, Tokens.NONE);
    }

    private static CallRecord ok(int i, String op, long atMs, int sdkRetry, long tokens) {
        return call(i, op, CallRecord.Result.OK, 200, null, false, null, atMs, sdkRetry, new Tokens(tokens, 0));
    }

    private static RunTrace trace(List<Outcome> outcomes, List<VirtualClock.Wait> waits, CallRecord... calls) {
        Scenario s = new Scenario("s", List.of("plan", "patch"), List.of(), Expectations.NONE, POLICY, 1);
        Duration total = Duration.ofNanos(waits.stream().mapToLong(VirtualClock.Wait::nanos).sum());
        return new RunTrace(s, outcomes, Arrays.asList(calls), waits, total, List.of(), null);
    }

    private static List<String> lines(List<Violation> violations) {
        return violations.stream().map(Violation::line).toList();
    }

    @Test
    void callsAnSdkMadeAfterInsufficientQuotaNameTheSdkAndItsFixNotTheLoop() {
        assertEquals(List.of("s [budget] op 'plan': 2 calls after the token quota was spent (insufficient_quota at op"
                + " 'plan'); openai-java 4.105.0 made them all as its own retries (bound 0 calls after"
                + " insufficient_quota, actual 2 calls). openai-java retried 2 times after the insufficient_quota 429"
                + " before your loop saw it: build the client with maxRetries(0), so that the 429 reaches your loop at"
                + " once and it stops (QuotaExhausted.kind() INSUFFICIENT_QUOTA)"),
                lines(new LimitRetries().check(trace(List.of(), List.of(), insufficient(0, "plan", 0, 0),
                        insufficient(1, "plan", 500, 1), insufficient(2, "plan", 1500, 2)))));
    }

    @Test
    void aLoopThatCalledAfterInsufficientQuotaItselfKeepsTheLoopsFix() {
        assertEquals(List.of("s [budget] op 'plan': 2 calls after the token quota was spent (insufficient_quota at op"
                + " 'plan'); openai-java 4.105.0 made 1 of them as its own retries, your loop the other 1 (bound 0"
                + " calls after insufficient_quota, actual 2 calls). " + Messages.HINT_INSUFFICIENT_QUOTA),
                lines(new LimitRetries().check(trace(List.of(), List.of(), insufficient(0, "plan", 0, 0),
                        insufficient(1, "plan", 500, 1), ok(2, "patch", 600, 0, 10)))));
    }

    @Test
    void aRateLimitRetryTheSdkTimedItselfNamesTheSdk() {
        assertEquals(List.of("s [budget] op 'plan': retried 8000 ms after a rate-limit 429 with Retry-After \"30\","
                + " which states 30000 ms; openai-java 4.105.0 made that retry itself, after a wait of its own choosing"
                + " (bound at least 30000 ms, actual 8000 ms). openai-java retried the 429 itself, after a delay of its"
                + " own (an SDK caps or replaces a server-stated delay and adds jitter): build the client with"
                + " maxRetries(0) and let your loop wait the delay the 429 states (QuotaExhausted.delay(run.now()))"
                + " with run.sleeper()"),
                lines(new LimitRetries().check(trace(List.of(), List.of(), rateLimited(0, "plan", "30", 0, 0),
                        ok(1, "plan", 8000, 1, 10)))));
    }

    @Test
    void aRetryAfterTheSdkMadeTooSoonNamesTheSdkUnderBoundedWait() {
        assertEquals(List.of("s [bounded_wait] op 'plan': retried 500 ms after a quota rejection with Retry-After"
                + " \"2\", which states 2000 ms; openai-java 4.105.0 made that retry itself, after a wait of its own"
                + " choosing (bound at least 2000 ms, actual 500 ms). " + Messages.hintSdkRetryWait(SDK)),
                lines(RetryPacing.check(trace(List.of(), List.of(), quota(0, "plan", "2", 0, 0),
                        ok(1, "plan", 500, 1, 10)))));
    }

    @Test
    void aBackoffTheSdkCutShortNamesTheSdk() {
        List<String> lines = lines(RetryPacing.check(trace(List.of(), List.of(), failed(0, "plan", 0, 0),
                ok(1, "plan", 20, 1, 10))));
        assertEquals(1, lines.size(), lines.toString());
        String line = lines.get(0);
        assertEquals(true, line.startsWith("s [bounded_wait] op 'plan': retried 20 ms after"), line);
        assertEquals(true, line.contains("; openai-java 4.105.0 made that retry itself, after a wait of its own"
                + " choosing (bound at least 100 ms, actual 20 ms). openai-java retried the transient failure"
                + " itself, sooner than policy.backoff allows: build the client with maxRetries(0)"), line);
    }

    @Test
    void waitsTheSdkTookCountTowardTheTotalAndNameTheSdk() {
        List<VirtualClock.Wait> waits = List.of(new VirtualClock.Wait(0, 20_000 * MS, null),
                new VirtualClock.Wait(20_000 * MS, 16_000 * MS, SDK));
        assertEquals(List.of("s [bounded_wait] op 'plan': waited 36000 ms in total; policy.max_total_wait is 30000 ms;"
                + " openai-java 4.105.0 waited 16000 ms of it between its own retries (bound 30000 ms, actual"
                + " 36000 ms). openai-java waited between its own retries: build the client with maxRetries(0) so"
                + " that your loop decides every wait and checks the total against policy.max_total_wait, or allow"
                + " for the SDK's backoff in policy.max_total_wait"),
                lines(new BoundedWaiting().check(trace(List.of(), waits, ok(0, "plan", 0, 0, 10)))));
    }

    @Test
    void theLoopsOwnWaitsKeepTheLoopsFix() {
        List<VirtualClock.Wait> waits = List.of(new VirtualClock.Wait(0, 36_000 * MS, null));
        assertEquals(List.of("s [bounded_wait] op 'plan': waited 36000 ms in total; policy.max_total_wait is 30000 ms"
                + " (bound 30000 ms, actual 36000 ms). " + Messages.HINT_WAIT),
                lines(new BoundedWaiting().check(trace(List.of(), waits, ok(0, "plan", 0, 0, 10)))));
    }

    @Test
    void theScenarioCapNamesTheSdksRetries() {
        assertEquals(List.of("s [budget]: 3 calls in the scenario; budget.max_calls_per_scenario is 2; openai-java"
                + " 4.105.0 made 2 of them as its own retries, under 1 call of your loop (bound 2 calls, actual 3"
                + " calls). openai-java retried 2 times on its own: build the client with maxRetries(0) and let your"
                + " loop's policy retry, or raise budget.max_calls_per_scenario to allow for the SDK's retries"),
                lines(new CallBudget(new Budget(2)).check(trace(List.of(), List.of(), failed(0, "plan", 0, 0),
                        failed(1, "plan", 500, 1), ok(2, "plan", 1500, 2, 10)))).stream()
                        .filter(l -> l.startsWith("s [budget]:")).toList());
    }

    @Test
    void callsTheSdkMadeAfterAQuotaStopNameTheSdk() {
        List<Outcome> stopped = List.of(Outcome.stopped("plan", "2", 1));
        List<String> lines = lines(new CallBudget(Budget.NONE).check(trace(stopped, List.of(),
                quota(0, "plan", "2", 0, 0), failed(1, "patch", 10, 1))));
        assertEquals(List.of("s [budget] op 'patch': 1 call after the quota stop at op 'plan'; openai-java 4.105.0"
                + " made it as its own retries (bound 0 calls after a stop, actual 1 call). openai-java retried once"
                + " after the quota rejection that stopped the run: build the client with maxRetries(0), so that the"
                + " rejection reaches your loop at once and it returns its outcomes"),
                lines.stream().filter(l -> l.contains("after the quota stop")).toList());
    }

    @Test
    void tokensTheSdksRetriesSpentNameTheSdk() {
        Budget budget = new Budget(null, 25L, null, Map.of());
        assertEquals(List.of("s [budget]: 30 tokens in the scenario, retries and repairs included;"
                + " budget.max_tokens_per_scenario is 25; openai-java 4.105.0 spent 20 tokens of them in its own 2"
                + " retries (bound 25 tokens, actual 30 tokens). openai-java retried 2 times on its own, each retry"
                + " spending tokens again: build the client with maxRetries(0) and let your loop's policy retry, or"
                + " raise the budget"),
                lines(new TokenBudget(budget).check(trace(List.of(), List.of(), ok(0, "plan", 0, 0, 10),
                        ok(1, "plan", 10, 1, 10), ok(2, "plan", 20, 2, 10)))));
    }

    private static final String GENAI = "google-genai 2.3.0";
    private static final String GENAI_FIX = "build the client with HttpOptions.retryOptions(HttpRetryOptions.builder()"
            + ".attempts(1).httpStatusCodes(List.of())) and a timeout (HarnessGenai.builder(run).noRetries()"
            + ".timeout(...))";

    @Test
    void theScenarioCapNamesGoogleGenaisRetriesWithItsOwnFix() {
        CallRecord[] calls = {failed(0, "plan", 0, 0), failed(1, "plan", 500, 1), ok(2, "plan", 1500, 2, 10)};
        for (int i = 0; i < calls.length; i++) {
            CallRecord c = calls[i];
            calls[i] = new CallRecord(c.index(), c.op(), c.repair(), c.fault(), c.result(), c.status(),
                    c.retryAfter(), c.honourable(), c.atNanos(), c.firstTokenMs(), c.incarnation(), GENAI,
                    c.sdkRetry(), c.tokens(), c.limit(), c.model());
        }
        assertEquals(List.of("s [budget]: 3 calls in the scenario; budget.max_calls_per_scenario is 2; google-genai"
                + " 2.3.0 made 2 of them as its own retries, under 1 call of your loop (bound 2 calls, actual 3"
                + " calls). google-genai retried 2 times on its own: " + GENAI_FIX + " and let your loop's policy"
                + " retry, or raise budget.max_calls_per_scenario to allow for the SDK's retries"),
                lines(new CallBudget(new Budget(2)).check(trace(List.of(), List.of(), calls))).stream()
                        .filter(l -> l.startsWith("s [budget]:")).toList());
    }

    @Test
    void everyRetryAuditHintForGoogleGenaiGivesItsRetryOptionsNotMaxRetries() {
        List<String> hints = List.of(Messages.hintSdkRetries(GENAI, 4), Messages.hintSdkAfterInsufficientQuota(GENAI,
                4), Messages.hintSdkAfterStop(GENAI, 4), Messages.hintSdkRetryWait(GENAI), Messages.hintSdkBackoff(
                GENAI), Messages.hintSdkWaits(GENAI), Messages.hintSdkCalls(GENAI, 4), Messages.hintSdkTokens(GENAI,
                4));
        for (String hint : hints) {
            assertEquals(true, hint.startsWith("google-genai "), hint);
            assertEquals(true, hint.contains(GENAI_FIX), hint);
            assertEquals(false, hint.contains("maxRetries"), hint);
        }
        assertEquals(true, Messages.hintSdkCalls(SDK, 2).contains("build the client with maxRetries(0) and let"),
                "the other SDKs keep their fix");
    }
}
