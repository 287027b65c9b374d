package dev.resilienceharness.clients.genai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.genai.Client;
import com.google.genai.errors.GenAiIOException;
import com.google.genai.types.GenerateContentResponse;
import dev.resilienceharness.clients.tck.PolicyTableLoop;
import dev.resilienceharness.clients.tck.PolicyTableProject;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A three-step loop written with google-genai, retries off in the SDK and the policy table in the loop: a crash
 * resumes from the journal, a slow first token halves the concurrency, one past the timeout is retried, and a tool call
 * the SDK cannot read is repaired once.
 */
class GenaiPolicyTableTest {

    private static final String MODEL = "gemini-2.5-flash";
    private static final List<String> OPS = List.of("plan", "patch", "review");

    private static final String YAML = """
            version: 1
            loop: com.acme.GeminiFixLoop
            policy: {max_attempts: 3, max_total_wait: 30s, schema: {repair_attempts: 1}}
            scenarios:
              - name: crash-resumes
                ops: [plan, patch, review]
                faults: [none, crash]
                expect: {status: [ok, ok, ok]}
              - name: slow-first-token
                ops: [plan, patch, review]
                faults: [{slow_first_token: {elapsed_ms: 3500}}]
                expect: {status: [ok, ok, ok]}
              - name: slow-past-the-timeout
                ops: [plan, patch, review]
                faults: [{slow_first_token: {elapsed_ms: 3500}}, none]
                expect: {status: [ok, ok, ok], attempts: [2, 1, 1]}
              - name: bad-tool-call
                ops: [plan, patch, review]
                faults: [none, bad_tool_call]
                expect: {status: [ok, ok, ok], attempts: [1, 2, 1]}
            """;

    @TempDir
    Path dir;

    static String prompt(String op) {
        return "Do the " + op + " step.";
    }

    static String answer(String op) {
        return "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"" + op + " done\"},"
                + "{\"functionCall\":{\"name\":\"apply_patch\",\"args\":{\"path\":\"" + op + ".txt\"}}}]},"
                + "\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":9,"
                + "\"candidatesTokenCount\":2,\"totalTokenCount\":11},\"modelVersion\":\"" + MODEL + "\"}";
    }

    /** A team's loop: one generateContent per step, journaled; the policy's retries, repairs and slow-token rule. */
    static final class GeminiFixLoop extends PolicyTableLoop<Client> {
        GeminiFixLoop(Function<LoopRun, Client> clients) {
            super(clients);
        }

        @Override
        protected Outcome step(LoopRun run, Client client, String op, int concurrency) {
            Policy policy = run.policy();
            int attempts = 0;
            int transients = 0;
            int repairs = 0;
            while (true) {
                attempts++;
                Instant start = run.now();
                try {
                    GenerateContentResponse r = client.models.generateContent(MODEL, prompt(op), null);
                    return slowTokenRule(run, start, Outcome.ok(op, JsonNodeFactory.instance.stringNode(
                            r.parts().get(0).text().orElse("")), attempts), concurrency);
                } catch (GenAiIOException e) {
                    if (!timedOut(e)) {
                        // The SDK could not read the answer: a functionCall whose args are no object.
                        if (repairs < policy.schema().repairAttempts()) {
                            repairs++;
                            continue;
                        }
                        return Outcome.degraded(op, "schema", attempts);
                    }
                    transients++;
                    if (transients < policy.maxAttempts()) {
                        run.sleeper().sleep(policy.backoff(transients));
                        continue;
                    }
                    return Outcome.degraded(op, "timeout", attempts);
                }
            }
        }

        private static boolean timedOut(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof SocketTimeoutException) {
                    return true;
                }
            }
            return false;
        }
    }

    private Rehearsal project(Function<LoopRun, Client> clients) throws Exception {
        return PolicyTableProject.write(dir, YAML, OPS, GenaiPolicyTableTest::answer,
                (stub, op) -> HarnessGenai.builder(stub).build().models.generateContent(MODEL, prompt(op), null),
                () -> new GeminiFixLoop(clients));
    }

    private static ScenarioResult check(Rehearsal rehearsal, String name) {
        ScenarioResult result = PolicyTableProject.check(rehearsal, name);
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList(), name);
        return result;
    }

    private static Function<LoopRun, Client> noRetries(Duration timeout) {
        return run -> HarnessGenai.builder(run).noRetries().timeout(timeout).build();
    }

    @Test
    void aCrashAtTheSecondOfThreeOpsResumesFromTheJournalWithoutRepeatingTheFirst() throws Exception {
        ScenarioResult result = check(project(noRetries(Duration.ofSeconds(30))), "crash-resumes");
        assertEquals(1, result.trace().restarts().size());
        assertEquals(List.of("plan", "patch", "patch", "review"),
                result.trace().calls().stream().map(CallRecord::op).toList());
        assertEquals(CallRecord.Result.CRASH, result.trace().calls().get(1).result());
        assertEquals(List.of(0, 0, 0, 0), result.trace().calls().stream().map(CallRecord::sdkRetry).toList());
        assertEquals(List.of(Status.OK, Status.OK, Status.OK),
                result.trace().outcomes().stream().map(Outcome::status).toList());
    }

    @Test
    void aSlowFirstTokenUnderTheTimeoutArrivesLateOnTheVirtualClockAndHalvesTheConcurrency() throws Exception {
        ScenarioResult result = check(project(noRetries(Duration.ofSeconds(30))), "slow-first-token");
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(3500L, plan.elapsedMs());
        assertEquals(2, plan.concurrency(), "the policy's 4, halved");
        assertNull(result.trace().outcomes().get(1).elapsedMs());
    }

    @Test
    void aSlowFirstTokenPastTheTimeoutIsATimeoutTheLoopRetriesNotTheSdk() throws Exception {
        ScenarioResult result = check(project(noRetries(Duration.ofSeconds(3))), "slow-past-the-timeout");
        assertEquals(CallRecord.Result.TRANSIENT, result.trace().calls().get(0).result());
        assertEquals(0, result.trace().calls().get(1).sdkRetry(), "the loop retried it, not the SDK");
    }

    @Test
    void aToolCallTheSdkCannotReadIsRepairedOnceByTheLoop() throws Exception {
        ScenarioResult result = check(project(noRetries(Duration.ofSeconds(30))), "bad-tool-call");
        assertEquals(CallRecord.Result.SCHEMA, result.trace().calls().get(1).result());
        assertEquals(List.of("plan", "patch", "patch", "review"),
                result.trace().calls().stream().map(CallRecord::op).toList());
        result.trace().calls().forEach(c -> assertEquals(0, c.sdkRetry(), "a 200 is never the SDK's to retry"));
    }
}
