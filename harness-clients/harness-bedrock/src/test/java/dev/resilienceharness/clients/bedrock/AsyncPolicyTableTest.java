package dev.resilienceharness.clients.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.CassetteStream;
import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.clients.tck.AnsweringEndpoint;
import dev.resilienceharness.clients.tck.PolicyTableLoop;
import dev.resilienceharness.clients.tck.PolicyTableProject;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseRequest;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The policy table's slow first token met by a loop written with the async client: the client's
 * {@code apiCallAttemptTimeout} and {@code apiCallTimeout} run out on the virtual clock as on the synchronous client.
 * Under the attempt timeout the answer arrives late; past it, it is the SDK's {@link ApiCallAttemptTimeoutException},
 * which a default client retries itself and a client without retries hands to the loop; past {@code apiCallTimeout}
 * it is the SDK's {@link ApiCallTimeoutException}, which the SDK does not retry.
 */
class AsyncPolicyTableTest {

    private static final String MODEL = "amazon.nova-lite-v1:0";
    private static final List<String> OPS = List.of("plan", "patch", "review");

    private static final String YAML = """
            version: 1
            loop: com.acme.AsyncBedrockFixLoop
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
            """;

    private static final String STREAM_YAML = """
            version: 1
            loop: com.acme.StreamingBedrockLoop
            policy: {max_attempts: 3, max_total_wait: 30s}
            scenarios:
              - name: stream-slow-past-the-timeout
                ops: [plan]
                faults: [{slow_first_token: {elapsed_ms: 3500}}, none]
              - name: stream-stall-past-the-timeout
                ops: [plan]
                faults: [{stream_stall: {after_events: 2, ms: 60000}}, none]
            """;

    @TempDir
    Path dir;

    static ConverseRequest request(String op) {
        return ConverseRequest.builder().modelId(MODEL).messages(Message.builder().role(ConversationRole.USER)
                .content(ContentBlock.fromText(BedrockPolicyTableTest.prompt(op))).build()).build();
    }

    /** A team's loop on the async client: one Converse call per step, journaled; the policy's retries. */
    static final class AsyncBedrockFixLoop extends PolicyTableLoop<BedrockRuntimeAsyncClient> {
        final List<String> thrown = Collections.synchronizedList(new ArrayList<>());

        AsyncBedrockFixLoop(Function<LoopRun, BedrockRuntimeAsyncClient> clients) {
            super(clients);
        }

        @Override
        protected Outcome step(LoopRun run, BedrockRuntimeAsyncClient client, String op, int concurrency) {
            Policy policy = run.policy();
            for (int attempt = 1; ; attempt++) {
                Instant start = run.now();
                try {
                    ConverseResponse r = client.converse(request(op)).join();
                    return slowTokenRule(run, start, Outcome.ok(op, JsonNodeFactory.instance.stringNode(
                            r.output().message().content().get(0).text()), attempt), concurrency);
                } catch (CompletionException e) {
                    if (!(e.getCause() instanceof SdkClientException sdk)) {
                        throw e;
                    }
                    thrown.add(sdk.getClass().getSimpleName() + (sdk.getCause() == null ? ""
                            : " caused by " + sdk.getCause().getClass().getSimpleName()));
                    if (attempt >= policy.maxAttempts()) {
                        return Outcome.degraded(op, "timeout", attempt);
                    }
                    run.sleeper().sleep(policy.backoff(attempt));
                }
            }
        }
    }

    private Rehearsal project(AsyncBedrockFixLoop loop) throws Exception {
        return PolicyTableProject.write(dir, YAML, OPS, BedrockPolicyTableTest::answer, (stub, op) -> {
            try (BedrockRuntimeAsyncClient client = HarnessBedrock.asyncBuilder(stub).build()) {
                client.converse(request(op)).join();
            }
        }, () -> loop);
    }

    private static ScenarioResult check(Rehearsal rehearsal, String name) {
        ScenarioResult result = PolicyTableProject.check(rehearsal, name);
        assertEquals(List.of(Status.OK, Status.OK, Status.OK),
                result.trace().outcomes().stream().map(Outcome::status).toList(), name);
        return result;
    }

    private static Function<LoopRun, BedrockRuntimeAsyncClient> timeouts(Duration attempt, Duration call,
            boolean sdkRetries) {
        return run -> {
            AsyncBuilder b = HarnessBedrock.asyncBuilder(run).customize(c -> c.overrideConfiguration(o -> {
                if (attempt != null) {
                    o.apiCallAttemptTimeout(attempt);
                }
                if (call != null) {
                    o.apiCallTimeout(call);
                }
            }));
            return (sdkRetries ? b : b.noRetries()).build();
        };
    }

    @Test
    void aSlowFirstTokenUnderTheAttemptTimeoutArrivesLateOnTheVirtualClockAndHalvesTheConcurrency()
            throws Exception {
        AsyncBedrockFixLoop loop = new AsyncBedrockFixLoop(timeouts(Duration.ofSeconds(5), null, false));
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
    void pastTheAttemptTimeoutADefaultAsyncClientRetriesTheSdksApiCallAttemptTimeoutItself() throws Exception {
        AsyncBedrockFixLoop loop = new AsyncBedrockFixLoop(timeouts(Duration.ofSeconds(3), null, true));
        ScenarioResult result = check(project(loop), "slow-past-the-timeout");
        List<CallRecord> calls = result.trace().calls();
        assertEquals(CallRecord.Result.TRANSIENT, calls.get(0).result());
        assertEquals(List.of(0, 1), calls.subList(0, 2).stream().map(CallRecord::sdkRetry).toList(),
                "the SDK retried its ApiCallAttemptTimeoutException");
        assertTrue(calls.get(1).atNanos() >= Duration.ofSeconds(3).toNanos(),
                "the retry went out once the 3 s attempt timeout ran out on the virtual clock: " + calls.get(1));
        assertTrue(calls.get(1).atNanos() < Duration.ofMillis(3500).toNanos(), "not once the 3.5 s answer came");
        assertEquals(List.of(), loop.thrown, "the loop never saw the timeout");
        assertEquals(1, result.trace().outcomes().get(0).attempts());
    }

    @Test
    void pastTheAttemptTimeoutAnAsyncClientWithoutRetriesHandsTheLoopTheSdksApiCallAttemptTimeoutException()
            throws Exception {
        AsyncBedrockFixLoop loop = new AsyncBedrockFixLoop(timeouts(Duration.ofSeconds(3), null, false));
        ScenarioResult result = check(project(loop), "slow-past-the-timeout");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        assertEquals(List.of("ApiCallAttemptTimeoutException"), loop.thrown.stream().distinct().toList());
        assertEquals(CallRecord.Result.TRANSIENT, result.trace().calls().get(0).result());
        assertEquals(Duration.ofSeconds(3).toNanos(), result.trace().calls().get(1).atNanos()
                - result.trace().totalWait().toNanos(), "3 s of timeout, then the loop's own backoff");
        assertEquals(0, result.trace().calls().get(1).sdkRetry(), "the loop retried it, not the SDK");
        assertEquals(2, result.trace().outcomes().get(0).attempts());
    }

    @Test
    void pastTheApiCallTimeoutItIsTheSdksApiCallTimeoutExceptionWhichEvenADefaultClientDoesNotRetry()
            throws Exception {
        AsyncBedrockFixLoop loop = new AsyncBedrockFixLoop(timeouts(Duration.ofSeconds(10), Duration.ofSeconds(2),
                true));
        ScenarioResult result = check(project(loop), "slow-past-the-timeout");
        assertEquals(List.of("ApiCallTimeoutException"), loop.thrown.stream().distinct().toList());
        List<CallRecord> calls = result.trace().calls();
        assertEquals(0, calls.get(1).sdkRetry(), "the loop retried it, not the SDK");
        assertEquals(Duration.ofSeconds(2).toNanos(), calls.get(1).atNanos() - result.trace().totalWait().toNanos(),
                "the 2 s apiCallTimeout, shorter than the attempt's 10 s, ran out first");
    }

    @Test
    void theApiCallTimeoutSpansTheSdksRetriesSoItsRetryRunsUnderWhatIsLeftOfIt() throws Exception {
        // 3 s attempts within a 5 s call: the first attempt times out at 3 s and the SDK retries it; the retry has
        // what is left of the 5 s, under 2 s, and the call ends at 5 s with ApiCallTimeoutException, which the SDK
        // does not retry. Were each attempt given the whole call, the retry would time out at 6 s and the SDK's third
        // attempt would answer: the loop would never learn that its call ran out of time.
        AsyncBedrockFixLoop loop = new AsyncBedrockFixLoop(timeouts(Duration.ofSeconds(3), Duration.ofSeconds(5),
                true));
        ScenarioResult result = check(project(loop), "slow-twice-past-the-timeout");
        BedrockPolicyTableTest.assertTheCallEndedAtItsTimeoutAndTheLoopRetried(result, loop.thrown);
    }

    /** The ConverseStream of {@link StreamingBedrockLoop}'s plan op, as its cassette keeps it: five text deltas. */
    private Rehearsal streamProject(StreamingBedrockLoop loop) throws Exception {
        Path file = dir.resolve("resilience.yaml");
        Files.createDirectories(dir.resolve("cassettes"));
        Files.writeString(file, STREAM_YAML, StandardCharsets.UTF_8);
        HarnessConfig config = ConfigLoader.load(file);
        AnsweringEndpoint stub = new AnsweringEndpoint(attempt -> "{}");
        try (BedrockRuntimeAsyncClient client = HarnessBedrock.asyncBuilder(stub).noRetries().build()) {
            client.converseStream(StreamingBedrockLoop.request("plan"), ConverseStreamResponseHandler.builder()
                    .subscriber(e -> { }).build()).exceptionally(t -> null).join();
        }
        HttpAttempt sent = stub.seen().get(0);
        List<StreamEvent> events = new ArrayList<>();
        events.add(new StreamEvent(0, "messageStart", "{\"role\":\"assistant\"}"));
        for (int i = 0; i < ConverseStreamTest.PIECES.size(); i++) {
            events.add(new StreamEvent(15L * (i + 1), "contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":"
                    + "{\"text\":\"" + ConverseStreamTest.PIECES.get(i) + "\"}}"));
        }
        events.add(new StreamEvent(90, "contentBlockStop", "{\"contentBlockIndex\":0}"));
        events.add(new StreamEvent(90, "messageStop", "{\"stopReason\":\"end_turn\"}"));
        String text = String.join("", ConverseStreamTest.PIECES);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        store.write(ApiShape.request("/" + sent.path(), (ObjectNode) Json.readTree(sent.body())),
                Json.readTree("{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\""
                        + text + "\"}]}},\"stopReason\":\"end_turn\"}"), null, "plan", new CassetteStream(events));
        return Rehearsal.prepare(config, () -> loop);
    }

    private static Function<LoopRun, BedrockRuntimeAsyncClient> streaming(Duration attempt) {
        return run -> HarnessBedrock.asyncBuilder(run).noRetries()
                .customize(c -> c.overrideConfiguration(o -> o.apiCallAttemptTimeout(attempt))).build();
    }

    private static ScenarioResult checkStream(Rehearsal rehearsal, String name) {
        return rehearsal.check(rehearsal.config().scenarios().stream().filter(s -> s.name().equals(name))
                .findFirst().orElseThrow(), 1, Rehearsal.RUN_INVARIANTS);
    }

    @Test
    void aConverseStreamsFirstFramePastTheAttemptTimeoutIsTheSdksApiCallAttemptTimeoutException() throws Exception {
        StreamingBedrockLoop loop = new StreamingBedrockLoop(true, streaming(Duration.ofSeconds(3)));
        ScenarioResult result = checkStream(streamProject(loop), "stream-slow-past-the-timeout");
        assertEquals(List.of(), result.trace().realSleeps());
        assertInstanceOf(ApiCallAttemptTimeoutException.class, loop.broken.get(0), loop.broken.toString());
        assertEquals(Duration.ofSeconds(3).toNanos(), result.trace().calls().get(1).atNanos()
                - result.trace().totalWait().toNanos(), "3 s of attempt timeout, then the loop's own backoff");
        assertEquals(Status.OK, result.trace().outcomes().get(0).status(), "no text had arrived: the loop retried");
        assertEquals(String.join("", ConverseStreamTest.PIECES), result.trace().outcomes().get(0).value().asString());
    }

    @Test
    void aConverseStreamStalledPastTheAttemptTimeoutEndsWithTheSdksApiCallAttemptTimeoutException()
            throws Exception {
        StreamingBedrockLoop loop = new StreamingBedrockLoop(true, streaming(Duration.ofSeconds(10)));
        ScenarioResult result = checkStream(streamProject(loop), "stream-stall-past-the-timeout");
        assertEquals(List.of(), result.trace().realSleeps());
        assertInstanceOf(ApiCallAttemptTimeoutException.class, loop.broken.get(0), loop.broken.toString());
        assertTrue(loop.handlerErrors.stream().anyMatch(ApiCallAttemptTimeoutException.class::isInstance),
                "the handler's onError saw it too: " + loop.handlerErrors);
        assertEquals(1, result.trace().calls().size(), "text had arrived: the careful loop kept it, no retry");
        assertEquals("stalled", result.trace().streams().get(0).end());
    }
}
