package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/** Every violation sentence and hint, in one place so that tests and docs can quote them exactly. */
@API(status = INTERNAL, since = "0.1.0")
public final class Messages {

    private Messages() {
    }

    static final String HINT_BUDGET = "Retry only what the policy allows: transient failures up to max_attempts,"
            + " one retry after an honourable Retry-After, up to repair_attempts repairs";
    static final String HINT_BUDGET_AFTER_RESTART = "A restart spent the op's retries again: checkpoint the op in"
            + " flight before each retry (LoopRun.journal().checkpoint(op, progress)) and carry on from"
            + " journal().progress(op) when the op starts";
    static final String HINT_ROUNDS = "Raise policy.max_rounds if the turn really needs more model rounds; else stop"
            + " the loop from asking the model again (cap its tool calls, or answer once the tools have run)";
    static final String HINT_AFTER_STOP = "Return the outcomes at once when a quota stops the run";
    static final String HINT_SCENARIO_CAP = "Lower the loop's retries or raise budget.max_calls_per_scenario";
    static final String HINT_WAIT = "Check the total before each wait and degrade or stop instead of waiting past"
            + " policy.max_total_wait";
    static final String HINT_RETRY_AFTER = "Wait the delay the rejection states (QuotaExhausted.delay(run.now())) with"
            + " run.sleeper() before the one retry";
    static final String HINT_BACKOFF = "Wait policy.backoff(n) with run.sleeper() before retrying after the n-th"
            + " transient failure, or declare the jitter your loop uses (policy.jitter: full | equal)";
    static final String HINT_FIELDS = "Record the fields the policy table requires for each failure: retry_after,"
            + " reason quota, attempts, reason schema, elapsed_ms and the lowered concurrency (Outcome.stopped,"
            + " Outcome.degraded, Outcome.slow)";
    static final String HINT_PARTIAL = "Keep every finished op's outcome, in order, and return them when the run"
            + " stops";
    static final String HINT_RESUME = "Journal each finished op (LoopRun.journal().record) and skip journaled ops"
            + " when the loop starts";
    static final String HINT_EXPECT = "Fix the loop, or the scenario's expect list if the policy changed on purpose";
    static final String HINT_DETERMINISM = "Make outcomes depend only on the responses and the policy: no wall"
            + " clock, randomness, or hash order; declare drifting response fields under volatile";
    static final String HINT_LOOP_FAILED = "A loop must return its outcomes, not throw";

    /** {@code 1 call}, {@code 4 calls}. */
    static String calls(int n) {
        return n + (n == 1 ? " call" : " calls");
    }

    static String overBudget(int t, int q, int s, int c) {
        return "more calls than the policy allows (1 + " + t + " transient + " + q + " quota + " + s + " repair + "
                + c + " restart)";
    }

    /** {@code 1 round}, {@code 4 rounds}. */
    static String rounds(int n) {
        return n + (n == 1 ? " round" : " rounds");
    }

    /** The first round of an op beyond {@code policy.max_rounds}. */
    static String roundBeyond(int round, int maxRounds) {
        return "round " + round + " of at most " + maxRounds + " (policy.max_rounds)";
    }

    /** A round's own violation, with {@code policy.max_rounds} above 1. */
    static String inRound(int round, String what) {
        return "round " + round + ": " + what;
    }

    static String callsAfterStop(int count, String stoppedOp) {
        return calls(count) + " after the quota stop at op '" + stoppedOp + "'";
    }

    static String scenarioCap(int calls, int cap) {
        return calls + " calls in the scenario; budget.max_calls_per_scenario is " + cap;
    }

    static String waitedTooLong(String actual, String bound) {
        return "waited " + actual + " in total; policy.max_total_wait is " + bound;
    }

    /** {@code at least 2000 ms}. */
    static String atLeast(String millis) {
        return "at least " + millis;
    }

    static String retriedBeforeRetryAfter(String gap, String retryAfter, String stated) {
        return "retried " + gap + " after a quota rejection with Retry-After \"" + retryAfter + "\", which states "
                + stated;
    }

    static String retriedBeforeBackoff(String gap, int n, String backoff, String jitter, String least) {
        return "retried " + gap + " after its " + ordinal(n) + " transient failure; the policy's backoff is " + backoff
                + " (jitter " + jitter + ": at least " + least + ")";
    }

    /** {@code 1st}, {@code 2nd}, {@code 11th}. */
    static String ordinal(int n) {
        int tens = n % 100;
        String suffix = tens >= 11 && tens <= 13 ? "th"
                : switch (n % 10) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return n + suffix;
    }

    static String missingField(String failure, String field) {
        return "its outcome lacks " + field + ", which " + failure + " requires";
    }

    static String concurrencyNotLowered(String failure, int before, int lowered, int actual) {
        return "its outcome has concurrency " + actual + " after " + failure + "; the policy halves the limit " + before
                + " to " + lowered + " (min 1)";
    }

    static String missingOutcome(boolean stopped, boolean called) {
        if (!stopped) {
            return "has no outcome although the run did not stop";
        }
        return called ? "was called before the stop but is missing from the outcome list"
                : "has no outcome";
    }

    static String duplicateOutcome(String op) {
        return "appears more than once in the outcome list";
    }

    static String outOfOrder(List<String> expected, List<String> actual) {
        return "outcomes are out of order: expected " + expected + ", got " + actual;
    }

    static String stopNotLast(String op) {
        return "a stopped outcome is followed by more outcomes";
    }

    static String recalledAfterRestart(int calls) {
        return "finished before the process restart but was called again after it (" + calls
                + (calls == 1 ? " call)" : " calls)");
    }

    static String changedAfterRestart(String before, String after) {
        return "its outcome changed across the restart: journaled " + before + ", returned " + after;
    }

    static String expectationMismatch(String list, String expected, String actual) {
        return "expect." + list + " is " + expected + " but the outcomes show " + actual;
    }

    static String nondeterministic(int run, String path, String first, String other) {
        return "run " + run + " differs from run 1 at " + path + ": " + first + " vs " + other;
    }

    // --- Loops that swallow their crash, call unlisted ops, sleep for real, or sit on an SDK that retries ---

    static final String SWALLOWED_CRASH = "the loop caught the crash signal (ProcessRecycled, an Error) and carried on"
            + " as a dead process; its calls, waits and journal writes after the crash were discarded";
    static final String HINT_SWALLOWED_CRASH = "Let ProcessRecycled through: catch Exception rather than Throwable, or"
            + " rethrow every Error you catch, so that the process dies as a real one would";

    static String unlistedOp(String op, List<String> ops) {
        return "the loop called op '" + op + "', which is not one of the scenario's ops " + ops;
    }

    static final String HINT_UNLISTED_OP = "Call only the scenario's ops, or add the op to the scenario's ops";

    static String sleptForReal(long millis, String where) {
        return "slept " + millis + " ms in real time in " + where + " (the harness interrupted it)";
    }

    /** What to do about a real sleep, by who slept. */
    static String hintRealSleep(String where) {
        if (where.startsWith("dev.langchain4j.")) {
            return "langchain4j's retry layer waits with Thread.sleep, which no clock can replace: build the model"
                    + " with maxRetries(0) and let your loop retry, waiting on run.sleeper()";
        }
        if (where.startsWith("org.springframework.retry.")) {
            return "Spring Retry's backoff sleeps for real: give the backoff policy the run's sleeper"
                    + " (ExponentialBackOffPolicy.withSleeper), or build the chat model with the harness adapter";
        }
        if (where.startsWith("com.google.genai.")) {
            return "google-genai's RetryInterceptor waits with Thread.sleep, which no clock can replace, even after its"
                    + " last attempt, and sets no timeout by default: build the client with HttpOptions.retryOptions("
                    + "HttpRetryOptions.builder().attempts(1).httpStatusCodes(List.of())) and a timeout"
                    + " (HarnessGenai.builder(run).noRetries().timeout(...)), and let your loop retry, waiting on"
                    + " run.sleeper()";
        }
        if (where.startsWith("com.openai.") || where.startsWith("com.anthropic.")) {
            return "the SDK's DefaultSleeper sleeps for real: build the client with the harness adapter, which gives"
                    + " the SDK the run's virtual sleeper and clock";
        }
        return "Wait with run.sleeper().sleep(...) instead of Thread.sleep: it is virtual, and the harness sees every"
                + " wait";
    }

    /** What to do about a run that stalled, by what its thread was doing. */
    static String hintStall(Thread.State state, String bound) {
        String raise = "; if the loop really works that long between two calls, raise -Dresilience.stallTimeout (now "
                + bound + ")";
        if (state == Thread.State.RUNNABLE) {
            return "Find why the loop keeps running without calling or waiting (a retry that never reaches the"
                    + " transport, a busy wait)" + raise;
        }
        return "Bound the wait: Future.get(timeout, unit) instead of get() or join(), with a timeout the loop handles"
                + " (an SDK's callback may never come when a stream breaks)" + raise;
    }

    /** The retry-stack audit: which layer made an op's calls. */
    static String layers(String sdk, int loopCalls, int sdkRetries) {
        return "; " + sdk + " made " + sdkRetries + " of them as its own retries, under " + loopCalls
                + (loopCalls == 1 ? " call" : " calls") + " of your loop";
    }

    static String hintSdkRetries(String sdk, int sdkRetries) {
        return SdkLayer.name(sdk) + " retried " + times(sdkRetries) + " before your loop saw the answer: "
                + noSdkRetries(sdk) + " and let your loop's policy retry, or allow for the SDK's retries in the"
                + " policy (max_attempts)";
    }

    /**
     * How to build {@code sdk}'s client without its own retries: {@code maxRetries(0)}, google-genai's retry
     * options, which also need a timeout since the SDK sets none, or the AWS SDK's {@code doNotRetry()} strategy.
     */
    static String noSdkRetries(String sdk) {
        if (SdkLayer.name(sdk).equals("google-genai")) {
            return "build the client with HttpOptions.retryOptions(HttpRetryOptions.builder().attempts(1)"
                    + ".httpStatusCodes(List.of())) and a timeout (HarnessGenai.builder(run).noRetries().timeout(...))";
        }
        if (SdkLayer.name(sdk).equals("aws-sdk-bedrockruntime")) {
            return "build the client with overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))"
                    + " (HarnessBedrock.builder(run).noRetries(), or asyncBuilder(run).noRetries())";
        }
        return "build the client with maxRetries(0)";
    }

    private static String times(int n) {
        return n == 1 ? "once" : n + " times";
    }

    /** The retry-stack audit on calls counted after an event: how many an SDK made as its own retries. */
    static String afterBySdk(String sdk, int loopCalls, int sdkRetries) {
        if (loopCalls == 0) {
            return "; " + sdk + " made " + (sdkRetries == 1 ? "it" : "them all") + " as its own retries";
        }
        return "; " + sdk + " made " + sdkRetries + " of them as its own retries, your loop the other " + loopCalls;
    }

    /** The retry-stack audit on a line about one retry: the SDK made it, after a wait it chose. */
    static String retriedBySdk(String sdk) {
        return "; " + sdk + " made that retry itself, after a wait of its own choosing";
    }

    /** The retry-stack audit on the total wait: how much of it an SDK took between its own retries. */
    static String waitsBySdk(String sdk, String millis) {
        return "; " + sdk + " waited " + millis + " of it between its own retries";
    }

    /** The retry-stack audit on the token budget: how much of it an SDK's own retries spent. */
    static String tokensBySdk(String sdk, long tokens, int retries) {
        return "; " + sdk + " spent " + tokens(tokens) + " of them in its own " + (retries == 1 ? "retry" : retries
                + " retries");
    }

    static String hintSdkAfterInsufficientQuota(String sdk, int sdkRetries) {
        return SdkLayer.name(sdk) + " retried " + times(sdkRetries) + " after the insufficient_quota 429 before your"
                + " loop saw it: " + noSdkRetries(sdk) + ", so that the 429 reaches your loop at once and"
                + " it stops (QuotaExhausted.kind() INSUFFICIENT_QUOTA)";
    }

    static String hintSdkAfterStop(String sdk, int sdkRetries) {
        return SdkLayer.name(sdk) + " retried " + times(sdkRetries) + " after the quota rejection that stopped the"
                + " run: " + noSdkRetries(sdk) + ", so that the rejection reaches your loop at once and it"
                + " returns its outcomes";
    }

    static String hintSdkRetryWait(String sdk) {
        return SdkLayer.name(sdk) + " retried the 429 itself, after a delay of its own (an SDK caps or replaces a"
                + " server-stated delay and adds jitter): " + noSdkRetries(sdk) + " and let your loop wait"
                + " the delay the 429 states (QuotaExhausted.delay(run.now())) with run.sleeper()";
    }

    static String hintSdkBackoff(String sdk) {
        return SdkLayer.name(sdk) + " retried the transient failure itself, sooner than policy.backoff allows: "
                + noSdkRetries(sdk) + " and let your loop wait policy.backoff(n) with run.sleeper(), or"
                + " declare the SDK's backoff in the policy (backoff, jitter)";
    }

    static String hintSdkWaits(String sdk) {
        return SdkLayer.name(sdk) + " waited between its own retries: " + noSdkRetries(sdk) + " so that"
                + " your loop decides every wait and checks the total against policy.max_total_wait, or allow for the"
                + " SDK's backoff in policy.max_total_wait";
    }

    static String hintSdkCalls(String sdk, int sdkRetries) {
        return SdkLayer.name(sdk) + " retried " + times(sdkRetries) + " on its own: "
                + noSdkRetries(sdk) + " and let your loop's policy retry, or raise budget.max_calls_per_scenario to"
                + " allow for the SDK's retries";
    }

    static String hintSdkTokens(String sdk, int sdkRetries) {
        return SdkLayer.name(sdk) + " retried " + times(sdkRetries) + " on its own, each retry spending tokens again:"
                + " " + noSdkRetries(sdk) + " and let your loop's policy retry, or raise the budget";
    }

    // --- provider limits and the token budget ---

    static final String HINT_INSUFFICIENT_QUOTA = "Stop the run when a 429 says insufficient_quota"
            + " (QuotaExhausted.kind() INSUFFICIENT_QUOTA): no wait brings the quota back, so keep the finished work"
            + " and return it";
    static final String HINT_RATE_LIMIT = "Wait the delay a rate-limit 429 states (QuotaExhausted.delay(run.now()))"
            + " with run.sleeper() before calling again; a retry at once only meets the full window again";
    static final String HINT_TOKENS = "Spend fewer tokens (fewer retries and repairs, shorter requests) or raise the"
            + " budget";

    static String tokens(long n) {
        return n + (n == 1 ? " token" : " tokens");
    }

    static String retriedInsufficientQuota(int after, String op) {
        return calls(after) + " after the token quota was spent (insufficient_quota at op '" + op + "')";
    }

    static String retriedBeforeRateLimit(String gap, String retryAfter, String stated) {
        return "retried " + gap + " after a rate-limit 429 with Retry-After \"" + retryAfter + "\", which states "
                + stated;
    }

    static String scenarioTokens(long spent, long cap) {
        return spent + " tokens in the scenario, retries and repairs included; budget.max_tokens_per_scenario is "
                + cap;
    }

    static String opTokens(long spent, long cap) {
        return spent + " tokens for the op, retries and repairs included; budget.max_tokens_per_op is " + cap;
    }
}
