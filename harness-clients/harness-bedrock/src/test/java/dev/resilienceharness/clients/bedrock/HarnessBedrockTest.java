package dev.resilienceharness.clients.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.clients.tck.AnsweringEndpoint;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.BedrockRuntimeException;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import tools.jackson.databind.node.ObjectNode;

/**
 * A loop a team writes with the AWS SDK's Bedrock Runtime client, given {@link HarnessBedrock}'s client: the SDK's own
 * retries are calls of the run and its backoff waits on the virtual clock, and with retries off the loop's own policy
 * passes.
 */
class HarnessBedrockTest {

    private static final String MODEL = "anthropic.claude-3-haiku-20240307-v1:0";
    private static final String PROMPT = "Plan the work in one sentence.";
    private static final String ANSWER = "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":"
            + "\"Write the tests, then the code.\"}]}},\"stopReason\":\"end_turn\","
            + "\"usage\":{\"inputTokens\":8,\"outputTokens\":7,\"totalTokens\":15},\"metrics\":{\"latencyMs\":120}}";

    private static final String YAML = """
            version: 1
            loop: com.acme.BedrockLoop
            policy: {max_attempts: 3, max_total_wait: 30s}
            scenarios:
              - name: quota-then-ok
                ops: [plan]
                faults: [{quota: {retry_after: "1"}}, none]
                expect: {status: [ok], attempts: [2]}
              - name: quota-storm
                ops: [plan]
                faults: [quota, quota, quota, quota, quota]
              - name: server-error
                ops: [plan]
                faults: [{server_error: {status: 503}}, none]
                expect: {status: [ok], attempts: [2]}
              - name: crash-resumes
                ops: [plan]
                faults: [crash]
                expect: {status: [ok]}
              - name: bad-tool-call
                ops: [plan]
                faults: [bad_tool_call]
            """;

    @TempDir
    Path dir;

    /** A team's loop: asks once per attempt and retries a 429 or a 5xx itself, waiting on the run's sleeper. */
    static final class BedrockLoop implements AgentLoop {
        private final Function<LoopRun, BedrockRuntimeClient> clients;
        final List<String> errors = new ArrayList<>();

        BedrockLoop(Function<LoopRun, BedrockRuntimeClient> clients) {
            this.clients = clients;
        }

        @Override
        public List<Outcome> run(LoopRun run) {
            BedrockRuntimeClient client = clients.apply(run);
            try (var scope = run.op("plan")) {
                for (int attempt = 1; ; attempt++) {
                    try {
                        ConverseResponse r = converse(client);
                        return List.of(Outcome.ok("plan", tools.jackson.databind.node.JsonNodeFactory.instance
                                .stringNode(r.output().message().content().get(0).text()), attempt));
                    } catch (BedrockRuntimeException e) {
                        errors.add(e.getClass().getSimpleName() + " " + e.statusCode());
                        if (attempt >= 3 || e.statusCode() != 429 && e.statusCode() < 500) {
                            return List.of(Outcome.degraded("plan", String.valueOf(e.statusCode()), attempt));
                        }
                        run.sleeper().sleep(Duration.ofSeconds(1));
                    }
                }
            }
        }
    }

    static ConverseResponse converse(BedrockRuntimeClient client) {
        return client.converse(r -> r.modelId(MODEL).messages(Message.builder().role(ConversationRole.USER)
                .content(ContentBlock.fromText(PROMPT)).build()));
    }

    /** What the SDK sends for the loop's request, captured from a client answered by a stub. */
    private static HttpAttempt sentBySdk() {
        AnsweringEndpoint stub = new AnsweringEndpoint(attempt -> ANSWER);
        ConverseResponse r = converse(HarnessBedrock.builder(stub).build());
        assertEquals("Write the tests, then the code.", r.output().message().content().get(0).text(),
                "the run's answer reaches the SDK's parser");
        assertEquals(1, stub.seen().size());
        return stub.seen().get(0);
    }

    private Rehearsal project(AgentLoop loop) throws Exception {
        HttpAttempt sent = sentBySdk();
        assertEquals("model/anthropic.claude-3-haiku-20240307-v1%3A0/converse", sent.path());
        assertEquals(ApiShape.BEDROCK, ApiShape.forPath("/" + sent.path()));
        assertEquals(BedrockSdk.LABEL, sent.sdk());
        assertTrue(sent.headers().keySet().stream().anyMatch(h -> h.equalsIgnoreCase("Authorization")),
                "the SDK signed the request with SigV4");
        Path file = dir.resolve("resilience.yaml");
        Files.createDirectories(dir.resolve("cassettes"));
        Files.writeString(file, YAML, StandardCharsets.UTF_8);
        HarnessConfig config = ConfigLoader.load(file);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        ObjectNode request = ApiShape.request("/" + sent.path(), (ObjectNode) Json.readTree(sent.body()));
        assertEquals(MODEL, request.path("modelId").asString(), "the model id its path carries is keyed");
        store.write(request, (ObjectNode) Json.readTree(ANSWER), null, "plan");
        return Rehearsal.prepare(config, () -> loop);
    }

    private static ScenarioResult check(Rehearsal rehearsal, String name) {
        return rehearsal.check(rehearsal.config().scenarios().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(), 1, Rehearsal.RUN_INVARIANTS);
    }

    @Test
    void withTheSdksRetriesOffTheLoopsOwnPolicyPasses() throws Exception {
        BedrockLoop loop = new BedrockLoop(run -> HarnessBedrock.builder(run).noRetries().build());
        Rehearsal r = project(loop);
        ScenarioResult result = check(r, "quota-then-ok");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        assertEquals(List.of(CallRecord.Result.QUOTA, CallRecord.Result.OK),
                result.trace().calls().stream().map(CallRecord::result).toList());
        assertEquals(List.of(0, 0), result.trace().calls().stream().map(CallRecord::sdkRetry).toList(),
                "both attempts are the loop's");
        assertEquals(List.of(), result.trace().realSleeps());
        assertEquals(Duration.ofSeconds(1), result.trace().totalWait(), "the loop waited on the virtual clock");
        assertEquals("ThrottlingException 429", loop.errors.get(0), "a 429 is the SDK's ThrottlingException");
    }

    @Test
    void aServerErrorIsTheSdksServiceUnavailableException() throws Exception {
        BedrockLoop loop = new BedrockLoop(run -> HarnessBedrock.builder(run).noRetries().build());
        ScenarioResult result = check(project(loop), "server-error");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        assertEquals("ServiceUnavailableException 503", loop.errors.get(0));
    }

    @Test
    void aDefaultClientsHiddenRetriesAreNamedAndItsBackoffIsVirtual() throws Exception {
        Rehearsal r = project(new BedrockLoop(HarnessBedrock::client));
        long start = System.nanoTime();
        ScenarioResult result = check(r, "quota-storm");
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "no real backoff was slept");
        List<CallRecord> calls = result.trace().calls();
        assertEquals(BedrockSdk.LABEL, calls.get(0).sdk());
        // bedrockruntime 2.59.1 resolves the standard mode by default: 3 attempts, then the loop's next call.
        assertEquals(List.of(0, 1, 2, 0), calls.subList(0, 4).stream().map(CallRecord::sdkRetry).toList(),
                "the loop's call, then the SDK's 2 retries");
        assertEquals(List.of(), result.trace().realSleeps(), "the SDK's backoff waited on the virtual clock");
        assertFalse(result.violations().isEmpty());
        assertTrue(result.violations().stream().anyMatch(v -> v.hint() != null
                && v.hint().startsWith("aws-sdk-bedrockruntime retried")), result.violations().stream()
                .map(v -> v.line() + " / " + v.hint()).toList().toString());
    }

    @Test
    void legacyModeMakesFourAttemptsAndItsThrottlingBackoffWaitsOnTheVirtualClock() throws Exception {
        Rehearsal r = project(new BedrockLoop(run -> HarnessBedrock.builder(run)
                .retryMode(software.amazon.awssdk.core.retry.RetryMode.LEGACY).build()));
        ScenarioResult result = check(r, "quota-storm");
        assertEquals(List.of(0, 1, 2, 3), result.trace().calls().subList(0, 4).stream().map(CallRecord::sdkRetry)
                .toList(), "legacy mode: the loop's call, then the SDK's 3 retries");
        assertEquals(List.of(), result.trace().realSleeps());
        List<dev.resilienceharness.clock.VirtualClock.Wait> sdkWaits = result.trace().waits().stream()
                .filter(w -> BedrockSdk.LABEL.equals(w.by())).toList();
        assertTrue(sdkWaits.size() >= 3, "the SDK's throttling backoff between its 4 attempts is the SDK's virtual"
                + " waits: " + result.trace().waits());
        assertTrue(sdkWaits.stream().allMatch(w -> w.nanos() > 0 && w.nanos() <= Duration.ofSeconds(20).toNanos()),
                "each at most legacy mode's 20 s cap");
    }

    @Test
    void aRequestNoCassetteAnswersIsACassetteViolation() throws Exception {
        List<Throwable> thrown = new ArrayList<>();
        Rehearsal r = project(run -> {
            BedrockRuntimeClient client = HarnessBedrock.client(run);
            try (var scope = run.op("plan")) {
                client.converse(q -> q.modelId(MODEL).messages(Message.builder().role(ConversationRole.USER)
                        .content(ContentBlock.fromText("Another prompt, never recorded.")).build()));
            } catch (RuntimeException e) {
                thrown.add(e);
            }
            return List.of(Outcome.ok("plan", null, 1));
        });
        ScenarioResult result = check(r, "bad-tool-call");
        assertFalse(thrown.isEmpty());
        Violation miss = result.violations().stream().filter(v -> v.invariant() == Invariant.CASSETTES).findFirst()
                .orElseThrow(() -> new AssertionError(result.violations()));
        assertTrue(miss.message().startsWith("no cassette for op 'plan': looked for "), miss.message());
        assertEquals(dev.resilienceharness.cassette.CassetteMiss.class, thrown.get(0).getClass(),
                "the miss passes through the SDK's retry stage untouched, not wrapped in an SdkClientException");
    }

    @Test
    void aCrashThroughTheSdkRestartsTheProcessAndTheRunResumes() throws Exception {
        Rehearsal r = project(new BedrockLoop(run -> HarnessBedrock.builder(run).noRetries().build()));
        ScenarioResult result = check(r, "crash-resumes");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        assertEquals(1, result.trace().restarts().size(), "the crash went through the SDK as the process dying");
        assertEquals(List.of(CallRecord.Result.CRASH, CallRecord.Result.OK),
                result.trace().calls().stream().map(CallRecord::result).toList());
    }

    @Test
    void aBrokenToolCallIsASchemaViolationThatReachesTheSdk() throws Exception {
        List<String> seen = new ArrayList<>();
        Rehearsal r = project(run -> {
            BedrockRuntimeClient client = HarnessBedrock.builder(run).noRetries().build();
            try (var scope = run.op("plan")) {
                try {
                    ConverseResponse answer = converse(client);
                    seen.add("input: " + answer.output().message().content().get(1).toolUse().input());
                } catch (RuntimeException e) {
                    seen.add(e.getClass().getName());
                }
            }
            return List.of(Outcome.ok("plan", null, 1));
        });
        ScenarioResult result = check(r, "bad-tool-call");
        assertEquals(CallRecord.Result.SCHEMA, result.trace().calls().get(0).result());
        assertEquals(1, seen.stream().distinct().count(), seen.toString());
    }
}
