package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class MessagesTest {

    @Test
    void call_counts_agree_in_number() {
        assertEquals("0 calls", Messages.calls(0));
        assertEquals("1 call", Messages.calls(1));
        assertEquals("2 calls", Messages.calls(2));
        assertEquals("finished before the process restart but was called again after it (1 call)",
                Messages.recalledAfterRestart(1));
        assertEquals("finished before the process restart but was called again after it (3 calls)",
                Messages.recalledAfterRestart(3));
        assertEquals("1 call after the quota stop at op 'plan'", Messages.callsAfterStop(1, "plan"));
    }

    @Test
    void bedrocks_own_fix_is_its_retry_strategy() {
        assertEquals("build the client with overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))"
                + " (HarnessBedrock.builder(run).noRetries(), or asyncBuilder(run).noRetries())",
                Messages.noSdkRetries("aws-sdk-bedrockruntime 2.59.1"));
        assertEquals("build the client with maxRetries(0)", Messages.noSdkRetries("openai-java 4.105.0"));
    }

    @Test
    void a_real_sleep_in_google_genai_names_its_retry_options() {
        String hint = Messages.hintRealSleep("com.google.genai.RetryInterceptor.intercept(RetryInterceptor.java:100)");
        org.junit.jupiter.api.Assertions.assertTrue(hint.startsWith("google-genai's RetryInterceptor waits with"
                + " Thread.sleep"), hint);
        org.junit.jupiter.api.Assertions.assertTrue(hint.contains("HttpRetryOptions.builder().attempts(1)"
                + ".httpStatusCodes(List.of())"), hint);
        assertEquals(Messages.hintRealSleep("com.acme.Loop.run(Loop.java:1)"),
                "Wait with run.sleeper().sleep(...) instead of Thread.sleep: it is virtual, and the harness sees every"
                        + " wait", "other sleepers keep their hint");
    }

    @Test
    void the_aws_sdks_hidden_retries_are_turned_off_with_its_retry_strategy_not_max_retries() {
        assertEquals("build the client with overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))"
                + " (HarnessBedrock.builder(run).noRetries(), or asyncBuilder(run).noRetries())",
                Messages.noSdkRetries("aws-sdk-bedrockruntime 2.59.1"));
        assertEquals("build the client with maxRetries(0)", Messages.noSdkRetries("openai-java 4.105.0"));
    }

    @Test
    void the_budget_sentence_spells_out_every_term() {
        assertEquals("more calls than the policy allows (1 + 2 transient + 1 quota + 0 repair + 3 restart)",
                Messages.overBudget(2, 1, 0, 3));
    }

    @Test
    void a_missing_outcome_is_explained_by_whether_the_run_stopped() {
        assertEquals("has no outcome although the run did not stop", Messages.missingOutcome(false, true));
        assertEquals("has no outcome although the run did not stop", Messages.missingOutcome(false, false));
        assertEquals("was called before the stop but is missing from the outcome list",
                Messages.missingOutcome(true, true));
        assertEquals("has no outcome", Messages.missingOutcome(true, false));
    }

    @Test
    void list_sentences_show_both_lists() {
        assertEquals("expect.status is [ok] but the outcomes show [degraded]",
                Messages.expectationMismatch("status", "[ok]", "[degraded]"));
        assertEquals("outcomes are out of order: expected [plan, patch], got [patch, plan]",
                Messages.outOfOrder(List.of("plan", "patch"), List.of("patch", "plan")));
    }
}
