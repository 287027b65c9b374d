package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.backends.Backend;
import com.anthropic.client.AnthropicClient;
import com.anthropic.models.messages.Message;
import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.clients.tck.AnsweringEndpoint;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * What a client bound to a run through one of anthropic-java's cloud backends must do, whichever the backend: the
 * backend's request reaches the run as the cloud would get it, its placeholder credentials never leave the process,
 * cassettes are recorded through it, and the SDK's hidden retries, a broken tool call and a cassette miss are met as
 * on Anthropic's own API. A subclass names the backend, its model and where its cloud serves.
 */
abstract class BackendContract {

    static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.anthropic.FixLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - name: clean
                ops: [plan, patch, review]
                expect: {status: [ok, ok, ok]}
              - name: quota-without-retry-after
                ops: [plan, patch, review]
                faults: [quota, quota, quota]
              - name: quota-stops
                ops: [plan, patch, review]
                faults: [none, quota]
                expect: {status: [ok, stopped]}
              - name: quota-honoured-once
                ops: [plan, patch, review]
                faults: [none, {quota: {retry_after: "2"}}]
                expect: {status: [ok, ok, ok], attempts: [1, 2, 1]}
              - name: transient-then-ok
                ops: [plan, patch, review]
                faults: [timeout, {server_error: {status: 529}}, none]
                expect: {status: [ok, ok, ok], attempts: [3, 1, 1]}
              - name: crash-resumes
                ops: [plan, patch, review]
                faults: [none, crash]
                expect: {status: [ok, ok, ok]}
              - name: slow-first-token
                ops: [plan, patch, review]
                faults: [{slow_first_token: {elapsed_ms: 3500}}]
                expect: {status: [ok, ok, ok]}
              - name: injected-bad-tool-call
                ops: [plan, patch, review]
                faults: [none, bad_tool_call]
              - name: unrecorded
                ops: [plan]
            """;

    @TempDir
    Path dir;

    HarnessConfig config;

    /** The backend under test, with its placeholder credentials. */
    abstract Backend backend();

    /** The model as this backend names it. */
    abstract String model();

    /** The path the backend posts a request for {@link #model()} to, as the run sees it (no leading {@code v1/}). */
    abstract String path(boolean stream);

    /**
     * The value of {@code anthropic_version} the backend puts in the body: anthropic-java 3.16.0 moves its
     * {@code anthropic-version} header there, on both backends.
     */
    static final String ANTHROPIC_VERSION = "2026-10-21";

    /** What comes before the path on the cloud's host: {@code /v1} for Vertex AI, nothing for Bedrock. */
    abstract String basePath();

    AnthropicClient client(LoopRun run) {
        return HarnessAnthropic.builder(run).backend(backend()).build();
    }

    AnthropicClient noSdkRetries(LoopRun run) {
        return HarnessAnthropic.builder(run).backend(backend()).maxRetries(0).build();
    }

    /** The project on disk, its cassettes recorded through the backend from a loopback cloud. */
    @BeforeEach
    void recordThroughTheBackend() throws Exception {
        config = Rehearsals.project(dir, YAML, null);
        try (CloudStub cloud = new CloudStub()) {
            int recorded = LoopRecorder.prepare(config, () -> new FixLoop(this::client, model()))
                    .recordMissing(Rehearsals.scenario(config, "clean"),
                            LiveHttp.to(cloud.baseUrl(basePath()), MessagesStub.KEY, Duration.ofSeconds(10)),
                            RecordingRedaction.forConfig(config))
                    .recorded();
            assertEquals(3, recorded);
            for (CloudStub.Received r : cloud.received()) {
                assertEquals(basePath() + "/" + path(false), r.path(), "the backend's path, as the cloud gets it");
                assertEquals(ANTHROPIC_VERSION, Json.readTree(r.body()).get("anthropic_version").asString());
                r.headers().forEach((name, values) -> values.forEach(v -> assertFalse(
                        v.contains(HarnessAnthropic.REPLAY_KEY), "the placeholder left the process in " + name)));
            }
        }
    }

    ScenarioResult check(String scenario, AgentLoop loop) {
        try {
            return Rehearsal.prepare(config, () -> loop).check(Rehearsals.scenario(config, scenario), 1,
                    Rehearsal.RUN_INVARIANTS);
        } catch (dev.resilienceharness.scenario.SetupException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    static List<String> lines(ScenarioResult result) {
        return result.violations().stream().map(Violation::line).toList();
    }

    static List<Violation> of(ScenarioResult result, Invariant invariant) {
        return result.violations().stream().filter(v -> v.invariant() == invariant).toList();
    }

    @Test
    void anAttemptIsTheBackendsRequestWithItsPlaceholderAuthorizationAndTheMessagesShape() {
        AnsweringEndpoint endpoint = new AnsweringEndpoint(a -> MessagesStub.answer("Plan", 1));
        AnthropicClient client = HarnessAnthropic.builder(endpoint).backend(backend()).build();

        Message message = new FixAgent(client, model()).step("plan");

        assertEquals("Allow a plus sign in the local part.", message.content().get(0).text().orElseThrow().text());
        HttpAttempt attempt = endpoint.seen().get(0);
        assertEquals(path(false), attempt.path());
        assertEquals(ApiShape.MESSAGES, ApiShape.forPath("/" + attempt.path()));
        assertEquals("Bearer " + HarnessAnthropic.REPLAY_KEY, attempt.header("Authorization"));
        assertEquals(null, attempt.header("x-api-key"), "no first-party key goes to a cloud");
        JsonNode body = Json.readTree(attempt.body());
        assertEquals(ANTHROPIC_VERSION, body.get("anthropic_version").asString());
        assertFalse(body.has("model"), "the model is in the path: " + body);
        assertEquals("anthropic-java 3.16.0", attempt.sdk());
    }

    @Test
    void theCassettesRecordedThroughTheBackendAreMessagesRequestsWithThePathsModel() throws Exception {
        List<JsonNode> requests = new ArrayList<>();
        try (Stream<Path> files = Files.list(config.cassettes())) {
            for (Path f : files.toList()) {
                String text = Files.readString(f);
                assertFalse(text.contains(MessagesStub.KEY), "the key never reaches a cassette");
                requests.add(Json.readTree(text).get("request"));
            }
        }
        assertEquals(3, requests.size());
        for (JsonNode request : requests) {
            assertEquals(model(), request.get("model").asString());
            assertEquals(ANTHROPIC_VERSION, request.get("anthropic_version").asString());
        }
        assertEquals(List.of(), lines(check("clean", new FixLoop(this::noSdkRetries, model()))));
    }

    /** What anthropic-java surfaces from an injected 429 in this backend's cloud's own error body. */
    abstract void assertCloudsOwnError(com.anthropic.errors.RateLimitException e);

    @Test
    void anInjected429IsTheCloudsOwnErrorAsTheSdkReadsIt() {
        dev.resilienceharness.http.HttpEndpoint quota = new dev.resilienceharness.http.HttpEndpoint() {
            @Override
            public dev.resilienceharness.http.HttpAnswer exchange(HttpAttempt attempt) {
                var request = (tools.jackson.databind.node.ObjectNode) Json.readTree(attempt.body());
                var answer = dev.resilienceharness.http.FaultAsHttp.answer(
                        new dev.resilienceharness.fault.QuotaFault(null), ApiShape.MESSAGES,
                        ApiShape.request("/" + attempt.path(), request), null, 0, Duration.ofSeconds(10));
                var headers = new java.util.LinkedHashMap<String, List<String>>();
                headers.put("Content-Type", List.of("application/json"));
                answer.headers().forEach((k, v) -> headers.put(k, List.of(v)));
                return new dev.resilienceharness.http.HttpAnswer.Response(0, answer.status(), headers,
                        Json.compact(answer.body()).getBytes(java.nio.charset.StandardCharsets.UTF_8), Duration.ZERO);
            }

            @Override
            public java.io.InputStream body(dev.resilienceharness.http.HttpAnswer.Response response,
                    Duration readTimeout) {
                return new java.io.ByteArrayInputStream(response.body());
            }

            @Override
            public java.time.Clock clock() {
                return java.time.Clock.systemUTC();
            }

            @Override
            public void sleep(Duration duration, String sdk) {
                throw new AssertionError("maxRetries(0): no wait expected");
            }

            @Override
            public Scope op(String op) {
                return () -> { };
            }
        };
        AnthropicClient client = HarnessAnthropic.builder(quota).backend(backend()).maxRetries(0).build();
        com.anthropic.errors.RateLimitException e = org.junit.jupiter.api.Assertions.assertThrows(
                com.anthropic.errors.RateLimitException.class, () -> new FixAgent(client, model()).step("plan"));
        assertEquals(java.util.Optional.empty(), e.type(), "the cloud's body names no Anthropic error type");
        assertCloudsOwnError(e);
    }

    @Test
    void aDefaultClientRetriesA429TwiceAndTheBudgetNamesTheSdk() {
        ScenarioResult result = check("quota-without-retry-after", new FixLoop(this::client, model()));
        RunTrace trace = result.trace();

        assertEquals(List.of(0, 1, 2), trace.calls().stream().map(CallRecord::sdkRetry).toList());
        assertEquals(List.of(Status.STOPPED), trace.outcomes().stream().map(Outcome::status).toList(),
                "the SDK's RateLimitException reached the loop");
        List<Violation> budget = of(result, Invariant.BUDGET);
        assertEquals(1, budget.size(), lines(result).toString());
        assertTrue(budget.get(0).line().contains("anthropic-java 3.16.0 made 2 of them as its own retries, under 1"
                + " call of your loop"), budget.get(0).line());
        assertTrue(budget.get(0).line().contains("build the client with maxRetries(0)"), budget.get(0).line());
        assertEquals(List.of(500_000_000L, 1_000_000_000L), trace.waits().stream().map(w -> w.nanos()).toList(),
                "the SDK's backoff, on the virtual clock");
    }

    @Test
    void withMaxRetriesZeroTheLoopsOwnPolicyPassesEveryScenario() {
        for (String scenario : List.of("quota-without-retry-after", "quota-stops", "quota-honoured-once",
                "transient-then-ok", "crash-resumes")) {
            ScenarioResult result = check(scenario, new FixLoop(this::noSdkRetries, model()));
            assertEquals(List.of(), lines(result), scenario);
            result.trace().calls().forEach(c -> assertEquals(0, c.sdkRetry(), scenario));
        }
    }

    @Test
    void aSlowFirstTokenArrivesLateOnTheVirtualClockAndHalvesTheConcurrency() {
        ScenarioResult result = check("slow-first-token", new FixLoop(this::client, model()));

        assertEquals(List.of(), lines(result));
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(3500L, plan.elapsedMs());
        assertEquals(2, plan.concurrency());
        assertEquals(1, plan.attempts());
    }

    @Test
    void aBrokenToolCallIsA200TheLoopJudgesAndRepairs() {
        ScenarioResult result = check("injected-bad-tool-call", new FixLoop(this::client, model()));

        CallRecord broken = result.trace().calls().get(1);
        assertEquals("patch", broken.op());
        assertEquals(CallRecord.Result.SCHEMA, broken.result());
        assertEquals(0, broken.sdkRetry(), "a 200 is never the SDK's to retry");
        Outcome patch = result.trace().outcomes().get(1);
        assertEquals(Status.OK, patch.status());
        assertEquals(2, patch.attempts(), "the loop's check found the broken input and asked again");
        assertTrue(WriteFileInput.valid(patch.value()), patch.value().toString());
        assertEquals(List.of(), lines(result));
    }

    @Test
    void aRequestNoCassetteAnswersIsACassetteViolationNamingTheOp() {
        List<RuntimeException> thrown = new ArrayList<>();
        ScenarioResult result = check("unrecorded", run -> {
            try (var scope = run.op("plan")) {
                client(run).messages().create(FixAgent.params("plan", model()).toBuilder().maxTokens(1024).build());
                return List.of(Outcome.ok("plan", null, 1));
            } catch (RuntimeException e) {
                thrown.add(e);
                throw e;
            }
        });

        assertEquals(CassetteMiss.class, thrown.get(0).getClass(), "the miss comes through the SDK untouched");
        List<Violation> cassettes = of(result, Invariant.CASSETTES);
        assertEquals(1, cassettes.size(), lines(result).toString());
        String message = cassettes.get(0).message();
        assertTrue(message.startsWith("no cassette for op 'plan': looked for "), message);
        assertTrue(message.contains("max_tokens"), message);
        assertTrue(message.contains("run mvn resilience:record"), message);
    }
}
