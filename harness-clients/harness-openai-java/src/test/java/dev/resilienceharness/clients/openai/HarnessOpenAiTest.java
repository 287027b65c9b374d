package dev.resilienceharness.clients.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.scenario.SetupException;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.CallRecord;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A team's openai-java loop rehearsed in-process: cassettes recorded through the SDK from a provider stub on
 * 127.0.0.1, then replayed offline with faults, the SDK's own retries counted and its waits virtual.
 */
class HarnessOpenAiTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.openai.TriageLoop
            policy:
              max_attempts: 3
              max_total_wait: 30s
              schema: {repair_attempts: 0}
            scenarios:
              - name: clean
                ops: [plan, patch]
                faults: []
              - name: quota-without-retry-after
                ops: [plan, patch]
                faults: [quota]
              - name: quota-with-retry-after
                ops: [plan, patch]
                faults: [{quota: {retry_after: "2"}}]
              - name: crash-after-plan
                ops: [plan, patch]
                faults: [none, crash]
              - name: slow-first-token
                ops: [plan]
                faults: [{slow_first_token: {elapsed_ms: 3500}}]
              - name: broken-tool-call
                ops: [plan]
                faults: [bad_tool_call]
              - name: server-errors
                ops: [plan]
                faults: [server_error, server_error, server_error]
              - name: rate-limited
                ops: [plan, patch]
                provider_limits: {requests_per_minute: 1}
                policy: {max_total_wait: 5m}
              - name: quota-spent-sdk-retries
                ops: [plan, patch]
                provider_limits: {token_quota: 10, shared: false}
              - name: rate-limited-sdk-retries
                ops: [plan, patch]
                provider_limits: {requests_per_minute: 1, shared: false}
                policy: {max_total_wait: 5m}
              - name: backoff-then-slow
                ops: [plan]
                faults: [server_error, {slow_first_token: {elapsed_ms: 3500}}]
            """;

    @TempDir
    Path dir;

    private HarnessConfig config;
    private final AtomicInteger served = new AtomicInteger();
    private final AtomicInteger upgrades = new AtomicInteger();
    private int recorded;

    @BeforeEach
    void recordThroughTheSdkFromALoopbackProvider() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        HttpServer stub = stub();
        try {
            LoopRecorder recording = LoopRecorder.prepare(config, TriageLoop::new);
            recorded = recording.recordMissing(scenario("clean"), LiveHttp.to(
                    URI.create("http://127.0.0.1:" + stub.getAddress().getPort() + "/v1"), "sk-test-key",
                    Duration.ofSeconds(10)), RecordingRedaction.forConfig(config)).recorded();
        } finally {
            stub.stop(0);
        }
    }

    @Test
    void recordMissingWritesLabelledRedactedCassettesThatReplayOffline() throws Exception {
        assertEquals(2, served.get(), "one request per op reached the provider");
        assertEquals(2, recorded, "and each was written");
        List<Path> cassettes;
        try (var files = Files.list(dir.resolve("cassettes"))) {
            cassettes = files.sorted().toList();
        }
        assertEquals(2, cassettes.size());
        for (Path file : cassettes) {
            JsonNode cassette = Json.readTree(Files.readAllBytes(file));
            assertTrue(List.of("plan", "patch").contains(cassette.get("op").asString()), cassette.toString());
            assertEquals("gpt-4o-mini", cassette.get("request").get("model").asString());
            assertFalse(Files.readString(file).contains("sk-test-key"));
            assertFalse(cassette.get("response").has("id"), "volatile response.id is stripped");
        }
        ScenarioResult clean = check("clean", TriageLoop::new);
        assertEquals(List.of(), clean.violations());
        assertEquals(List.of(Status.OK, Status.OK), statuses(clean));
        assertEquals(2, served.get(), "the replay sent nothing");
    }

    @Test
    void aDefaultClientRetriesAQuotaItselfAndTheBudgetViolationNamesTheSdk() throws Exception {
        ScenarioResult result = check("quota-without-retry-after", TriageLoop::new);
        List<CallRecord> calls = result.trace().calls();
        assertEquals(0, calls.get(0).sdkRetry());
        assertEquals(1, calls.get(1).sdkRetry(), "the second call is the SDK's own retry");
        assertTrue(calls.get(1).sdk().startsWith("openai-java 4."), calls.get(1).sdk());
        Violation budget = only(result, Invariant.BUDGET);
        assertEquals("plan", budget.op());
        assertEquals("1 call", budget.bound());
        assertEquals("2 calls", budget.actual());
        assertTrue(budget.message().contains("openai-java 4.105.0 made 1 of them as its own retries"),
                budget.message());
        assertTrue(budget.hint().startsWith("openai-java retried once before your loop saw the answer: build the"
                + " client with maxRetries(0)"), budget.hint());
        // The SDK's backoff (375-500 ms with its own jitter) was waited on the virtual clock.
        VirtualClock.Wait wait = result.trace().waits().get(0);
        assertTrue(wait.by().startsWith("openai-java"), String.valueOf(wait.by()));
        assertTrue(wait.nanos() >= 375_000_000L && wait.nanos() <= 500_000_000L, String.valueOf(wait.nanos()));
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void withMaxRetriesZeroTheLoopsOwnPolicyStopsOnTheQuotaAndPasses() throws Exception {
        ScenarioResult result = check("quota-without-retry-after", TriageLoop.NoSdkRetries::new);
        assertEquals(List.of(), result.violations());
        assertEquals(List.of(Status.STOPPED), statuses(result));
        assertEquals(1, result.trace().calls().size());
    }

    @Test
    void aRetryAfterIsHonouredOnTheVirtualClockBySdkAndLoopAlike() throws Exception {
        ScenarioResult sdk = check("quota-with-retry-after", TriageLoop::new);
        assertEquals(List.of(), sdk.violations());
        VirtualClock.Wait wait = sdk.trace().waits().get(0);
        assertEquals(2_000_000_000L, wait.nanos(), "the SDK waited the stated 2 s, virtually");
        assertTrue(wait.by().startsWith("openai-java"));

        ScenarioResult loop = check("quota-with-retry-after", TriageLoop.NoSdkRetries::new);
        assertEquals(List.of(), loop.violations());
        assertEquals(List.of(Status.OK, Status.OK), statuses(loop));
        assertEquals(2, loop.trace().outcomes().get(0).attempts(), "plan took the quota and one retry");
        assertEquals(null, loop.trace().waits().get(0).by(), "the loop's own wait");
    }

    @Test
    void aCrashThroughTheSdkRestartsTheLoopWhichResumesFromItsJournal() throws Exception {
        ScenarioResult result = check("crash-after-plan", TriageLoop.NoSdkRetries::new);
        assertEquals(List.of(), result.violations());
        assertEquals(1, result.trace().restarts().size());
        assertEquals(List.of(Status.OK, Status.OK), statuses(result));
        assertEquals(List.of("plan", "patch", "patch"),
                result.trace().calls().stream().map(CallRecord::op).toList(), "plan is not called again");
    }

    @Test
    void aSlowFirstTokenIsSeenOnTheVirtualClockAndHalvesConcurrency() throws Exception {
        ScenarioResult result = check("slow-first-token", TriageLoop.NoSdkRetries::new);
        assertEquals(List.of(), result.violations());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(3500L, plan.elapsedMs());
        assertEquals(2, plan.concurrency());
        assertEquals(Duration.ZERO, result.trace().totalWait(), "provider latency is not waiting");
    }

    @Test
    void aBrokenToolCallIn200DegradesWithoutARetryAndTheSdkDoesNotRetryIt() throws Exception {
        ScenarioResult result = check("broken-tool-call", TriageLoop::new);
        assertEquals(List.of(), result.violations());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals("schema", plan.reason());
        assertEquals(1, result.trace().calls().size());
        assertEquals(CallRecord.Result.SCHEMA, result.trace().calls().get(0).result());
    }

    @Test
    void serverErrorsRetriedByTheSdkAndTheLoopMultiplyAndAreReported() throws Exception {
        ScenarioResult result = check("server-errors", TriageLoop::new);
        // Three 503s: the SDK's first call and its two retries, then the loop's second attempt succeeds.
        assertEquals(4, result.trace().calls().size());
        Violation budget = only(result, Invariant.BUDGET);
        assertTrue(budget.message().contains("made 2 of them as its own retries, under 2 calls of your loop"),
                budget.message());
    }

    @Test
    void aFullWindowReachesTheSdkAsARealRateLimit429AndItsWaitIsVirtual() throws Exception {
        ScenarioResult result = check("rate-limited", TriageLoop.NoSdkRetries::new);
        CallRecord refused = result.trace().calls().get(1);
        assertEquals(CallRecord.RATE_LIMIT, refused.limit());
        assertEquals("60", refused.retryAfter());
        assertTrue(refused.sdk().startsWith("openai-java 4."), refused.sdk());
        // openai-java raised RateLimitException with the Retry-After; the loop waited it on the virtual clock.
        assertEquals(List.of(Status.OK, Status.OK), statuses(result));
        assertEquals(60_000_000_000L, result.trace().waits().get(0).nanos());
        assertEquals(List.of(), result.trace().realSleeps());
        assertEquals(List.of(), result.violations());
        assertEquals(30L, result.spend().tokens(), "two answers of 15 tokens, as their usage says");
    }

    /**
     * openai-java draws its backoff jitter from ThreadLocalRandom; the loop times its call (elapsed_ms), so the
     * jitter would reach its outcome. The SDK waits its nominal backoff on the run's clock instead: one verdict.
     */
    @Test
    void aLoopThatTimesItsCallsGetsTheSameDeterminismVerdictInAThousandRepetitions() throws Exception {
        Rehearsal rehearsal = Rehearsal.prepare(config, TriageLoop::new);
        Scenario scenario = scenario("backoff-then-slow");
        java.util.Set<List<Violation>> verdicts = new java.util.HashSet<>();
        java.util.Set<Long> elapsed = new java.util.HashSet<>();
        for (int i = 0; i < 1000; i++) {
            ScenarioResult result = rehearsal.check(scenario, 2, Rehearsal.RUN_INVARIANTS);
            verdicts.add(result.violations());
            elapsed.add(result.trace().outcomes().get(0).elapsedMs());
        }
        assertEquals(java.util.Set.of(List.of()), verdicts, "one verdict, with no violation");
        // The SDK's 0.5 s backoff before its first retry, at its nominal value, then the 3.5 s first token.
        assertEquals(java.util.Set.of(4000L), elapsed);
        ScenarioResult one = rehearsal.check(scenario, 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(500_000_000L, one.trace().waits().get(0).nanos());
        assertTrue(one.trace().waits().get(0).by().startsWith("openai-java"), one.trace().waits().toString());
    }

    @Test
    void callsOpenAiJavaMadeAfterInsufficientQuotaNameTheSdkAndItsFix() throws Exception {
        ScenarioResult result = check("quota-spent-sdk-retries", TriageLoop::new);
        // The loop stopped at once; openai-java made both calls after the insufficient_quota 429 as its retries.
        assertEquals(List.of(Status.OK, Status.STOPPED), statuses(result));
        assertEquals(List.of(0, 0, 1, 2), result.trace().calls().stream().map(CallRecord::sdkRetry).toList());
        List<String> quota = result.violations().stream().map(Violation::line)
                .filter(l -> l.contains("token quota")).toList();
        assertEquals(List.of("quota-spent-sdk-retries [budget] op 'patch': 2 calls after the token quota was spent"
                + " (insufficient_quota at op 'patch'); " + sdk(result) + " made them all as its own retries (bound 0"
                + " calls after insufficient_quota, actual 2 calls). openai-java retried 2 times after the"
                + " insufficient_quota 429 before your loop saw it: build the client with maxRetries(0), so that the"
                + " 429 reaches your loop at once and it stops (QuotaExhausted.kind() INSUFFICIENT_QUOTA)"), quota);
    }

    @Test
    void aRateLimitRetryOpenAiJavaTimedItselfNamesTheSdkAndItsFix() throws Exception {
        ScenarioResult result = check("rate-limited-sdk-retries", TriageLoop::new);
        List<String> rateLimit = result.violations().stream().map(Violation::line)
                .filter(l -> l.contains("after a rate-limit 429")).toList();
        assertFalse(rateLimit.isEmpty(), result.violations().toString());
        // openai-java caps a server-stated delay at 8 s: the wait is the SDK's, and the line says so.
        assertEquals("rate-limited-sdk-retries [budget] op 'patch': retried 8000 ms after a rate-limit 429 with"
                + " Retry-After \"60\", which states 60000 ms; " + sdk(result) + " made that retry itself, after a wait"
                + " of its own choosing (bound at least 60000 ms, actual 8000 ms). openai-java retried the 429 itself,"
                + " after a delay of its own (an SDK caps or replaces a server-stated delay and adds jitter): build the"
                + " client with maxRetries(0) and let your loop wait the delay the 429 states"
                + " (QuotaExhausted.delay(run.now())) with run.sleeper()", rateLimit.get(0));
        for (String line : rateLimit) {
            assertTrue(line.contains(sdk(result) + " made that retry itself"), line);
        }
    }

    private static String sdk(ScenarioResult result) {
        String sdk = result.trace().calls().get(0).sdk();
        assertTrue(sdk.startsWith("openai-java 4."), sdk);
        return sdk;
    }

    @Test
    void recordsThroughTheSdkFromAGatewayThatSpeaksOnlyHttp11() throws Exception {
        try (var files = Files.list(dir.resolve("cassettes"))) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        served.set(0);
        HttpServer gateway = stub(true);
        int again;
        try {
            again = LoopRecorder.prepare(config, TriageLoop::new).recordMissing(scenario("clean"), LiveHttp.to(
                    URI.create("http://127.0.0.1:" + gateway.getAddress().getPort() + "/v1"), "sk-test-key",
                    Duration.ofSeconds(10)), RecordingRedaction.forConfig(config)).recorded();
        } finally {
            gateway.stop(0);
        }
        assertEquals(0, upgrades.get(), "no request asked to upgrade to h2c");
        assertEquals(2, served.get());
        assertEquals(2, again);
        assertEquals(List.of(), check("clean", TriageLoop::new).violations(), "and the recording replays");
    }

    @Test
    void aRequestNoCassetteAnswersIsACassetteViolationNamingTheNearestRecording() throws Exception {
        ScenarioResult result = check("clean", Reworded::new);
        Violation miss = only(result, Invariant.CASSETTES);
        assertTrue(miss.message().startsWith("no cassette for op 'plan': looked for "), miss.message());
        assertTrue(miss.message().contains("differs at request.messages[0].content")
                || miss.message().contains("differs at messages[0].content"), miss.message());
        assertTrue(miss.message().contains("mvn resilience:record (loop: dev.resilienceharness.clients.openai"
                + ".TriageLoop)"), miss.message());
    }

    @Test
    void anOpWithNoRecordingIsASetupErrorSayingHowToRecordItThroughTheLoop() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), YAML + """
                  - name: unrecorded
                    ops: [review]
                    faults: []
                """);
        HarnessConfig more = ConfigLoader.load(dir.resolve("resilience.yaml"));
        SetupException e = assertThrows(SetupException.class, () -> Rehearsal.prepare(more, TriageLoop::new));
        assertTrue(e.getMessage().contains("no cassette recorded for op 'review'. This op's calls come from your"
                + " loop's SDK: run mvn resilience:record"), e.getMessage());
    }

    /** The loop after someone changed a prompt without re-recording. */
    public static final class Reworded extends TriageLoop {
        @Override
        protected String prompt(String op) {
            return "Please do the " + op + " step.";
        }
    }

    private ScenarioResult check(String name, LoopFactory loop) throws Exception {
        return Rehearsal.prepare(config, loop).check(scenario(name), 2, Rehearsal.RUN_INVARIANTS);
    }

    private Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static List<Status> statuses(ScenarioResult result) {
        return result.trace().outcomes().stream().map(Outcome::status).toList();
    }

    private static Violation only(ScenarioResult result, Invariant invariant) {
        List<Violation> found = result.violations().stream().filter(v -> v.invariant() == invariant).toList();
        assertEquals(1, found.size(), result.violations().toString());
        return found.get(0);
    }

    private HttpServer stub() throws IOException {
        return stub(false);
    }

    /** @param http11Only answers 404 to a request that asks to upgrade, as an HTTP/1.1-only gateway does */
    private HttpServer stub(boolean http11Only) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            byte[] request = exchange.getRequestBody().readAllBytes();
            if (http11Only && exchange.getRequestHeaders().containsKey("Upgrade")) {
                upgrades.incrementAndGet();
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            served.incrementAndGet();
            String op = new String(request, StandardCharsets.UTF_8).contains("plan") ? "plan" : "patch";
            boolean authorised = ("Bearer sk-test-key").equals(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] body = ("{\"id\":\"chatcmpl-" + served.get() + "\",\"object\":\"chat.completion\",\"created\":"
                    + (1_767_225_600 + served.get()) + ",\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,"
                    + "\"message\":{\"role\":\"assistant\",\"content\":\"" + op + " done\"},\"finish_reason\":"
                    + "\"stop\"}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(authorised ? 200 : 401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }
}
