package dev.resilienceharness.clients.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A three-step loop written with the Bedrock Runtime client against the policy table's slow first token: under
 * the client's {@code apiCallAttemptTimeout} it arrives late on the virtual clock and halves the concurrency; past
 * it, it is the SDK's {@link ApiCallAttemptTimeoutException}, which a default client retries itself and a client
 * without retries hands to the loop; past the HTTP client's 30 s socket read timeout, with no attempt timeout, it
 * is the SDK's I/O error around a {@link SocketTimeoutException}.
 */
class BedrockPolicyTableTest {

    private static final String MODEL = "amazon.nova-lite-v1:0";
    private static final List<String> OPS = List.of("plan", "patch", "review");

    private static final String YAML = """
            version: 1
            loop: com.acme.BedrockFixLoop
            policy: {max_attempts: 3, max_total_wait: 30s}
            scenarios:
              - name: slow-first-token
                ops: [plan, patch, review]
                faults: [{slow_first_token: {elapsed_ms: 3500}}]
                expect: {status: [ok, ok, ok]}
              - name: slow-past-the-timeout
                ops: [plan, patch, review]
                faults: [{slow_first_token: {elapsed_ms: 3500}}, none]
                expect: {status: [ok, ok, ok]}
              - name: slow-twice-past-the-timeout
                ops: [plan, patch, review]
                faults: [{slow_first_token: {elapsed_ms: 3500}}, {slow_first_token: {elapsed_ms: 3500}}, none]
                expect: {status: [ok, ok, ok]}
              - name: slow-past-the-socket-timeout
                ops: [plan, patch, review]
                faults: [{slow_first_token: {elapsed_ms: 31000}}, none]
                expect: {status: [ok, ok, ok], attempts: [2, 1, 1]}
            """;

    @TempDir
    Path dir;

    static String prompt(String op) {
        return "Do the " + op + " step.";
    }

    static String answer(String op) {
        return "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"" + op + " done\"}]}},"
                + "\"stopReason\":\"end_turn\",\"usage\":{\"inputTokens\":9,\"outputTokens\":2,\"totalTokens\":11},"
                + "\"metrics\":{\"latencyMs\":80}}";
    }

    static ConverseResponse converse(BedrockRuntimeClient client, String op) {
        return client.converse(r -> r.modelId(MODEL).messages(Message.builder().role(ConversationRole.USER)
                .content(ContentBlock.fromText(prompt(op))).build()));
    }

    /** A team's loop: one Converse call per step, journaled; the policy's retries and its slow-token rule. */
    static final class BedrockFixLoop extends PolicyTableLoop<BedrockRuntimeClient> {
        final List<String> thrown = Collections.synchronizedList(new ArrayList<>());

        BedrockFixLoop(Function<LoopRun, BedrockRuntimeClient> clients) {
            super(clients);
        }

        @Override
        protected Outcome step(LoopRun run, BedrockRuntimeClient client, String op, int concurrency) {
            Policy policy = run.policy();
            for (int attempt = 1; ; attempt++) {
                Instant start = run.now();
                try {
                    ConverseResponse r = converse(client, op);
                    return slowTokenRule(run, start, Outcome.ok(op, JsonNodeFactory.instance.stringNode(
                            r.output().message().content().get(0).text()), attempt), concurrency);
                } catch (SdkClientException e) {
                    thrown.add(e.getClass().getSimpleName() + (e.getCause() == null ? ""
                            : " caused by " + e.getCause().getClass().getSimpleName()));
                    if (attempt >= policy.maxAttempts()) {
                        return Outcome.degraded(op, "timeout", attempt);
                    }
                    run.sleeper().sleep(policy.backoff(attempt));
                }
            }
        }
    }

    private Rehearsal project(BedrockFixLoop loop) throws Exception {
        return PolicyTableProject.write(dir, YAML, OPS, BedrockPolicyTableTest::answer,
                (stub, op) -> converse(HarnessBedrock.builder(stub).build(), op), () -> loop);
    }

    private static ScenarioResult check(Rehearsal rehearsal, String name) {
        ScenarioResult result = PolicyTableProject.check(rehearsal, name);
        assertEquals(List.of(Status.OK, Status.OK, Status.OK),
                result.trace().outcomes().stream().map(Outcome::status).toList(), name);
        return result;
    }

    private static Function<LoopRun, BedrockRuntimeClient> attemptTimeout(Duration timeout, boolean sdkRetries) {
        return run -> {
            HarnessBedrock.Builder b = HarnessBedrock.builder(run)
                    .customize(c -> c.overrideConfiguration(o -> o.apiCallAttemptTimeout(timeout)));
            return (sdkRetries ? b : b.noRetries()).build();
        };
    }

    @Test
    void aSlowFirstTokenUnderTheAttemptTimeoutArrivesLateOnTheVirtualClockAndHalvesTheConcurrency()
            throws Exception {
        BedrockFixLoop loop = new BedrockFixLoop(attemptTimeout(Duration.ofSeconds(5), false));
        ScenarioResult result = check(project(loop), "slow-first-token");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(3500L, plan.elapsedMs());
        assertEquals(2, plan.concurrency(), "the policy's 4, halved");
        assertNull(result.trace().outcomes().get(1).elapsedMs());
        assertEquals(List.of(), loop.thrown);
        assertEquals(3, result.trace().calls().size());
    }

    @Test
    void pastTheAttemptTimeoutADefaultClientRetriesTheSdksApiCallAttemptTimeoutItself() throws Exception {
        BedrockFixLoop loop = new BedrockFixLoop(attemptTimeout(Duration.ofSeconds(3), true));
        ScenarioResult result = check(project(loop), "slow-past-the-timeout");
        List<CallRecord> calls = result.trace().calls();
        assertEquals(CallRecord.Result.TRANSIENT, calls.get(0).result());
        assertEquals(List.of(0, 1), calls.subList(0, 2).stream().map(CallRecord::sdkRetry).toList(),
                "the SDK retried its ApiCallAttemptTimeoutException");
        assertTrue(calls.get(1).atNanos() >= Duration.ofSeconds(3).toNanos(),
                "the retry went out once the 3 s attempt timeout ran out on the virtual clock: " + calls.get(1));
        assertTrue(calls.get(1).atNanos() < Duration.ofSeconds(3500).toNanos());
        assertEquals(List.of(), loop.thrown, "the loop never saw the timeout");
        assertEquals(1, result.trace().outcomes().get(0).attempts());
    }

    @Test
    void pastTheAttemptTimeoutAClientWithoutRetriesHandsTheLoopTheSdksApiCallAttemptTimeoutException()
            throws Exception {
        BedrockFixLoop loop = new BedrockFixLoop(attemptTimeout(Duration.ofSeconds(3), false));
        ScenarioResult result = check(project(loop), "slow-past-the-timeout");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        assertEquals(List.of("ApiCallAttemptTimeoutException"), loop.thrown.stream().distinct().toList(),
                "(the check runs the scenario more than once)");
        assertEquals(CallRecord.Result.TRANSIENT, result.trace().calls().get(0).result());
        assertEquals(Duration.ofSeconds(3).toNanos(), result.trace().calls().get(1).atNanos()
                - result.trace().totalWait().toNanos(), "3 s of timeout, then the loop's own backoff");
        assertEquals(0, result.trace().calls().get(1).sdkRetry(), "the loop retried it, not the SDK");
        assertEquals(2, result.trace().outcomes().get(0).attempts());
    }

    @Test
    void withoutAnAttemptTimeoutTheSocketReadTimeoutOf30SecondsRunsOutAsAnIoError() throws Exception {
        BedrockFixLoop loop = new BedrockFixLoop(run -> HarnessBedrock.builder(run).noRetries().build());
        ScenarioResult result = check(project(loop), "slow-past-the-socket-timeout");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        assertEquals(List.of("SdkClientException caused by SocketTimeoutException"),
                loop.thrown.stream().distinct().toList());
        assertEquals(SdkTimeouts.SOCKET_READ.toNanos(), result.trace().calls().get(1).atNanos()
                - result.trace().totalWait().toNanos(), "the default HTTP client's 30 s read timeout");
    }

    @Test
    void theApiCallTimeoutSpansTheSdksRetriesSoItsRetryRunsUnderWhatIsLeftOfIt() throws Exception {
        // 3 s attempts within a 5 s call: the SDK retries the first attempt's timeout, and its retry has what is left
        // of the 5 s; the call ends at 5 s with ApiCallTimeoutException, which the loop gets and retries.
        BedrockFixLoop loop = new BedrockFixLoop(run -> HarnessBedrock.builder(run).customize(c -> c
                .overrideConfiguration(o -> o.apiCallAttemptTimeout(Duration.ofSeconds(3))
                        .apiCallTimeout(Duration.ofSeconds(5)))).build());
        ScenarioResult result = check(project(loop), "slow-twice-past-the-timeout");
        assertTheCallEndedAtItsTimeoutAndTheLoopRetried(result, loop.thrown);
    }

    /**
     * 3 s attempts within a 5 s call, each slow past 3 s: the SDK retried the first attempt's timeout once, its retry
     * ran out at the call's 5 s with {@code ApiCallTimeoutException}, and the loop got it and retried.
     */
    static void assertTheCallEndedAtItsTimeoutAndTheLoopRetried(ScenarioResult result, List<String> thrown) {
        List<CallRecord> calls = result.trace().calls();
        assertEquals(List.of(0, 1, 0), calls.subList(0, 3).stream().map(CallRecord::sdkRetry).toList(),
                "the SDK retried the attempt timeout once; then the loop retried the call timeout");
        assertEquals(List.of("ApiCallTimeoutException"), thrown.stream().distinct().toList());
        assertTrue(calls.get(2).atNanos() >= Duration.ofSeconds(5).toNanos()
                && calls.get(2).atNanos() < Duration.ofSeconds(6).toNanos(),
                "the call ended at its 5 s, not at the retry's own 3 s past 3 s: " + calls);
        assertEquals(2, result.trace().outcomes().get(0).attempts());
    }
}
