package dev.resilienceharness.clients.genai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.genai.Client;
import com.google.genai.errors.ApiException;
import com.google.genai.errors.ClientException;
import com.google.genai.errors.ServerException;
import com.google.genai.types.GenerateContentResponse;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.clients.tck.AnsweringEndpoint;
import dev.resilienceharness.clients.tck.CarefulStreaming;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
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
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * A loop a team writes with google-genai, given {@link HarnessGenai}'s client: the SDK's own retries are calls of the
 * run, its real sleeps are reported with the fix, and with retries off the loop's own policy passes.
 */
class HarnessGenaiTest {

    private static final String MODEL = "gemini-2.5-flash";
    private static final String PROMPT = "Plan the work in one sentence.";
    private static final String ANSWER = "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":"
            + "\"Write the tests, then the code.\"}]},\"finishReason\":\"STOP\",\"index\":0}],"
            + "\"usageMetadata\":{\"promptTokenCount\":8,\"candidatesTokenCount\":7,\"totalTokenCount\":15},"
            + "\"modelVersion\":\"gemini-2.5-flash\"}";

    private static final String YAML = """
            version: 1
            loop: com.acme.GeminiLoop
            policy: {max_attempts: 3, max_total_wait: 30s}
            scenarios:
              - name: quota-then-ok
                ops: [plan]
                faults: [{quota: {retry_after: "1"}}, none]
                expect: {status: [ok], attempts: [2]}
              - name: streamed
                ops: [plan]
                faults: [none]
              - name: stream-error
                ops: [plan]
                faults: [{stream_error: {after_events: 1}}]
              - name: unavailable-after-text
                ops: [plan]
                faults: [{stream_error: {after_events: 1, error: UNAVAILABLE}}, none]
              - name: exhausted-before-text
                ops: [plan]
                faults: [{stream_error: {after_events: 0, error: RESOURCE_EXHAUSTED}}, none]
              - name: bad-tool-call
                ops: [plan]
                faults: [bad_tool_call]
              - name: crash-resumes
                ops: [plan]
                faults: [crash]
                expect: {status: [ok]}
              - name: slow-first-token
                ops: [plan]
                faults: [{slow_first_token: {elapsed_ms: 3500}}]
              - name: quota-storm
                ops: [plan]
                faults: [quota, quota, quota, quota, quota]
            """;

    @TempDir
    Path dir;

    /** A team's loop: asks once per attempt and retries a 429 or a 5xx itself, waiting on the run's sleeper. */
    static final class GeminiLoop implements AgentLoop {
        private final Function<LoopRun, Client> clients;

        GeminiLoop(Function<LoopRun, Client> clients) {
            this.clients = clients;
        }

        @Override
        public List<Outcome> run(LoopRun run) {
            Client client = clients.apply(run);
            try (var scope = run.op("plan")) {
                for (int attempt = 1; ; attempt++) {
                    try {
                        GenerateContentResponse r = client.models.generateContent(MODEL, PROMPT, null);
                        return List.of(Outcome.ok("plan", Json.readTree(Json.compact(
                                tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(r.text()))), attempt));
                    } catch (ApiException e) {
                        if (attempt >= 3 || e.code() != 429 && e.code() < 500) {
                            return List.of(Outcome.degraded("plan", e.status(), attempt));
                        }
                        run.sleeper().sleep(Duration.ofSeconds(1));
                    } catch (RuntimeException e) {
                        return List.of(Outcome.degraded("plan", "io", attempt));
                    }
                }
            }
        }
    }

    /** What the SDK sends for the loop's request, captured from a client answered by a stub. */
    private static HttpAttempt sentBySdk() {
        AnsweringEndpoint stub = new AnsweringEndpoint(attempt -> ANSWER);
        GenerateContentResponse r = HarnessGenai.builder(stub).build().models.generateContent(MODEL, PROMPT, null);
        assertEquals("Write the tests, then the code.", r.text(), "the run's answer reaches the SDK's parser");
        assertEquals(1, stub.seen().size());
        return stub.seen().get(0);
    }

    private Rehearsal project(AgentLoop loop) throws Exception {
        HttpAttempt sent = sentBySdk();
        assertTrue(sent.path().endsWith("models/" + MODEL + ":generateContent"), sent.path());
        assertEquals(ApiShape.GEMINI, ApiShape.forPath("/" + sent.path()));
        assertEquals(GenaiSdk.LABEL, sent.sdk());
        Path file = dir.resolve("resilience.yaml");
        Files.createDirectories(dir.resolve("cassettes"));
        Files.writeString(file, YAML, StandardCharsets.UTF_8);
        HarnessConfig config = ConfigLoader.load(file);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        ObjectNode request = ApiShape.request("/" + sent.path(), (ObjectNode) Json.readTree(sent.body()));
        store.write(request, (ObjectNode) Json.readTree(ANSWER), null, "plan");
        return Rehearsal.prepare(config, () -> loop);
    }

    private static ScenarioResult check(Rehearsal rehearsal, String name) {
        return rehearsal.check(rehearsal.config().scenarios().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(), 1, Rehearsal.RUN_INVARIANTS);
    }

    @Test
    void theSdksRetryWaitIsItsNominalDelayInEveryRunSoThatItsRealSleepIsAlwaysSeen() throws Exception {
        // Drawn at random (a jitter of +-100 %), the first wait falls under the real-sleep watch's 50 ms in one run
        // of forty, and that run's verdict would lack its bounded_wait violation.
        for (int run = 0; run < 20; run++) {
            Client client = HarnessGenai.builder(new AnsweringEndpoint(attempt -> ANSWER)).build();
            java.lang.reflect.Field apiClient = Client.class.getDeclaredField("apiClient");
            apiClient.setAccessible(true);
            java.lang.reflect.Field http = Class.forName("com.google.genai.ApiClient").getDeclaredField("httpClient");
            http.setAccessible(true);
            okhttp3.Interceptor retry = ((okhttp3.OkHttpClient) http.get(apiClient.get(client))).interceptors().stream()
                    .filter(i -> i.getClass().getName().equals("com.google.genai.RetryInterceptor")).findFirst()
                    .orElseThrow();
            java.lang.reflect.Method options = retry.getClass().getDeclaredMethod("retryOptions");
            java.lang.reflect.Method delay = retry.getClass().getDeclaredMethod("calculateDelay",
                    com.google.genai.types.HttpRetryOptions.class, int.class);
            options.setAccessible(true);
            delay.setAccessible(true);
            Object defaults = options.invoke(retry);
            assertEquals(List.of(1000L, 2000L, 4000L, 8000L), List.of(delay.invoke(retry, defaults, 1),
                    delay.invoke(retry, defaults, 2), delay.invoke(retry, defaults, 3), delay.invoke(retry, defaults, 4)),
                    "the SDK's own delay computation, its jitter held at the middle");
        }
    }

    @Test
    void withTheSdksRetriesOffTheLoopsOwnPolicyPasses() throws Exception {
        Rehearsal r = project(new GeminiLoop(run -> HarnessGenai.builder(run).noRetries()
                .timeout(Duration.ofSeconds(30)).build()));
        ScenarioResult result = check(r, "quota-then-ok");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        assertEquals(List.of(CallRecord.Result.QUOTA, CallRecord.Result.OK),
                result.trace().calls().stream().map(CallRecord::result).toList());
        assertEquals(List.of(0, 0), result.trace().calls().stream().map(CallRecord::sdkRetry).toList(),
                "both attempts are the loop's");
        assertEquals(List.of(), result.trace().realSleeps());
        assertEquals(Duration.ofSeconds(1), result.trace().totalWait(), "the loop waited on the virtual clock");
    }

    /** A loop that streams the answer and reports what it read, or what the SDK threw, as its outcome's value. */
    private static AgentLoop streaming(List<String> seen) {
        return run -> {
            Client client = HarnessGenai.builder(run).noRetries().timeout(Duration.ofSeconds(30)).build();
            try (var scope = run.op("plan")) {
                StringBuilder text = new StringBuilder();
                try (var stream = client.models.generateContentStream(MODEL, PROMPT, null)) {
                    for (GenerateContentResponse chunk : stream) {
                        text.append(chunk.text() == null ? "" : chunk.text());
                    }
                    seen.add("text: " + text);
                } catch (RuntimeException e) {
                    seen.add("after '" + text + "': " + e.getClass().getName() + ": " + e.getMessage());
                }
            }
            return List.of(Outcome.ok("plan", null, 1));
        };
    }

    @Test
    void aStreamedAnswerIsReadChunkByChunkAndAnErrorChunkIsWhatTheSdkThrows() throws Exception {
        List<String> seen = new ArrayList<>();
        Rehearsal r = project(streaming(seen));
        ScenarioResult ok = check(r, "streamed");
        // The determinism check runs the scenario twice: every run reads the same.
        assertEquals(List.of("text: Write the tests, then the code."), seen.stream().distinct().toList());
        assertEquals(1, ok.trace().streams().size(), "the answer went out as Gemini's chunks");
        seen.clear();
        ScenarioResult error = check(r, "stream-error");
        assertEquals(List.of("after 'Write the tests,': com.google.genai.errors.ServerException: 503 UNAVAILABLE."
                + " injected stream_error fault: the provider failed mid-stream"), seen.stream().distinct().toList(),
                "the SDK reads Gemini's error chunk as a ServerException, after the text that came before it");
        assertEquals(List.of(), error.trace().realSleeps());
    }

    /**
     * A loop on a default client (google-genai's retries on) that emits each chunk's text as it comes. Careful, it
     * retries a broken stream only while no text has arrived and otherwise keeps what it emitted, degraded; careless,
     * it retries whenever the stream breaks and emits the retry's text after what it already emitted.
     */
    private static AgentLoop emitting(boolean careful, List<RuntimeException> broken) {
        return run -> {
            Client client = HarnessGenai.client(run);
            return List.of(CarefulStreaming.<ApiException>of(careful, ApiException::status, StringNode::valueOf)
                    .waiting(Duration.ofSeconds(1)).op(run, "plan", emitter -> {
                        try (var stream = client.models.generateContentStream(MODEL, PROMPT, null)) {
                            for (GenerateContentResponse chunk : stream) {
                                emitter.event();
                                emitter.text(chunk.text() == null ? "" : chunk.text());
                            }
                            return null;
                        } catch (ApiException e) {
                            return e;
                        }
                    }, broken::add));
        };
    }

    @Test
    void anErrorChunkAfterTextPassesTheSdksRetriesAndACarefulLoopKeepsTheText() throws Exception {
        List<RuntimeException> broken = new ArrayList<>();
        ScenarioResult result = check(project(emitting(true, broken)), "unavailable-after-text");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one HTTP attempt: the 200 passed google-genai's RetryInterceptor, which never saw the 503");
        assertEquals(0, result.trace().calls().get(0).sdkRetry());
        // ResponseStream's iterator reads a chunk holding "error" with an integer code as ApiException does a status.
        ServerException e = assertInstanceOf(ServerException.class, broken.get(0));
        assertEquals(503, e.code());
        assertEquals("UNAVAILABLE", e.status());
        assertEquals("error_event", result.trace().streams().get(0).end());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals("Write the tests,", plan.value().asString(), "the emitted text, kept");
        assertEquals(Outcome.KEPT, plan.partialText());
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void aLoopThatRetriesAfterTheErrorChunksTextFailsUnderPartialWork() throws Exception {
        List<RuntimeException> broken = new ArrayList<>();
        ScenarioResult result = check(project(emitting(false, broken)), "unavailable-after-text");
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry, never the SDK's");
        assertEquals(List.of(0, 0), result.trace().calls().stream().map(CallRecord::sdkRetry).toList());
        assertInstanceOf(ServerException.class, broken.get(0));
        assertEquals("Write the tests,Write the tests, then the code.",
                result.trace().outcomes().get(0).value().asString(), "the text emitted twice");
        List<Violation> partial = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.PARTIAL_WORK).toList();
        assertEquals(1, partial.size(), result.violations().toString());
        assertEquals("its outcome repeats text that had already arrived before the stream was ended by an error event"
                + " after 2 events: \"Write the tests,\" appears 2 times in it", partial.get(0).message());
    }

    @Test
    void aResourceExhaustedChunkBeforeAnyTextIsAClientExceptionTheCarefulLoopRetries() throws Exception {
        List<RuntimeException> broken = new ArrayList<>();
        ScenarioResult result = check(project(emitting(true, broken)), "exhausted-before-text");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "no text had arrived: the loop retried, the SDK did not");
        assertEquals(List.of(0, 0), result.trace().calls().stream().map(CallRecord::sdkRetry).toList());
        ClientException e = assertInstanceOf(ClientException.class, broken.get(0),
                "a 429 in a chunk is google-genai's ClientException, as a 429 status is");
        assertEquals("429 RESOURCE_EXHAUSTED. injected stream_error fault: the provider failed mid-stream",
                e.getMessage());
        assertEquals("Write the tests, then the code.", result.trace().outcomes().get(0).value().asString());
        assertEquals(List.of(), result.trace().realSleeps(), "the SDK slept for nothing it never saw");
    }

    @Test
    void aBrokenToolCallIsWhatTheSdkSeesOfCutOffArgs() throws Exception {
        List<String> seen = new ArrayList<>();
        Rehearsal r = project(run -> {
            Client client = HarnessGenai.builder(run).noRetries().build();
            try (var scope = run.op("plan")) {
                try {
                    GenerateContentResponse answer = client.models.generateContent(MODEL, PROMPT, null);
                    seen.add("calls: " + answer.functionCalls());
                } catch (RuntimeException e) {
                    seen.add(e.getClass().getName() + ": " + e.getMessage());
                }
            }
            return List.of(Outcome.ok("plan", null, 1));
        });
        ScenarioResult result = check(r, "bad-tool-call");
        assertEquals(CallRecord.Result.SCHEMA, result.trace().calls().get(0).result());
        assertEquals(List.of("com.google.genai.errors.GenAiIOException: Failed to deserialize the JSON node."),
                seen.stream().distinct().toList(), "the SDK cannot read args that are not an object");
    }

    @Test
    void aRequestNoCassetteAnswersIsTheRunsMissNotAnSdkError() throws Exception {
        List<Throwable> thrown = new ArrayList<>();
        Rehearsal r = project(run -> {
            Client client = HarnessGenai.builder(run).noRetries().build();
            try (var scope = run.op("plan")) {
                client.models.generateContent(MODEL, "Another prompt, never recorded.", null);
            } catch (RuntimeException e) {
                thrown.add(e);
            }
            return List.of(Outcome.ok("plan", null, 1));
        });
        ScenarioResult result = check(r, "streamed");
        assertEquals(dev.resilienceharness.cassette.CassetteMiss.class, thrown.get(0).getClass(),
                "the miss passes through the SDK's retry layer untouched");
        Violation miss = result.violations().stream().filter(v -> v.invariant() == Invariant.CASSETTES).findFirst()
                .orElseThrow(() -> new AssertionError(result.violations()));
        assertTrue(miss.message().startsWith("no cassette for op 'plan': looked for "), miss.message());
        assertTrue(miss.message().contains("contents"), "the nearest request's differing path is named: "
                + miss.message());
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void aCrashThroughTheSdkRestartsTheProcessAndTheRunResumes() throws Exception {
        Rehearsal r = project(new GeminiLoop(run -> HarnessGenai.builder(run).noRetries().build()));
        ScenarioResult result = check(r, "crash-resumes");
        assertEquals(List.of(), result.violations().stream().map(Violation::line).toList());
        assertEquals(1, result.trace().restarts().size(), "the crash went through the SDK as the process dying");
        assertEquals(List.of(CallRecord.Result.CRASH, CallRecord.Result.OK),
                result.trace().calls().stream().map(CallRecord::result).toList());
    }

    @Test
    void aSlowFirstTokenIsVirtualTimeAndPastTheSdksTimeoutItsIoError() throws Exception {
        List<String> seen = new ArrayList<>();
        Rehearsal r = project(run -> {
            Client client = HarnessGenai.builder(run).noRetries().timeout(Duration.ofSeconds(2)).build();
            try (var scope = run.op("plan")) {
                try {
                    seen.add(client.models.generateContent(MODEL, PROMPT, null).text());
                } catch (RuntimeException e) {
                    seen.add(e.getClass().getName());
                }
            }
            return List.of(Outcome.ok("plan", null, 1));
        });
        long start = System.nanoTime();
        ScenarioResult result = check(r, "slow-first-token");
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(3).toNanos(), "no real time passed");
        assertEquals(List.of("com.google.genai.errors.GenAiIOException"), seen.stream().distinct().toList(),
                "3.5 s is past the client's 2 s timeout");
        assertEquals(CallRecord.Result.TRANSIENT, result.trace().calls().get(0).result());
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void oneAttemptAloneStillSleepsOnceAfterA429() throws Exception {
        // google-genai 2.3.0's RetryInterceptor sleeps after a retryable status even on its last attempt.
        Rehearsal r = project(new GeminiLoop(run -> HarnessGenai.builder(run).attempts(1).build()));
        ScenarioResult result = check(r, "quota-then-ok");
        assertFalse(result.trace().realSleeps().isEmpty());
        assertEquals(0, result.trace().calls().get(0).sdkRetry());
    }

    @Test
    void aDefaultClientsHiddenRetriesAreRealSleepsReportedWithTheFix() throws Exception {
        Rehearsal r = project(new GeminiLoop(HarnessGenai::client));
        ScenarioResult result = check(r, "quota-storm");
        CallRecord first = result.trace().calls().get(0);
        assertEquals(CallRecord.Result.QUOTA, first.result());
        assertEquals(GenaiSdk.LABEL, first.sdk());
        assertFalse(result.trace().realSleeps().isEmpty(), "the SDK's RetryInterceptor slept for real");
        assertTrue(result.trace().realSleeps().get(0).where().startsWith("com.google.genai.RetryInterceptor"),
                result.trace().realSleeps().get(0).where());
        Violation wait = result.violations().stream().filter(v -> v.invariant() == Invariant.BOUNDED_WAIT)
                .findFirst().orElseThrow(() -> new AssertionError(result.violations()));
        assertTrue(wait.hint().startsWith("google-genai's RetryInterceptor waits with Thread.sleep"), wait.hint());
        assertTrue(wait.hint().contains("HttpRetryOptions.builder().attempts(1).httpStatusCodes(List.of())"),
                wait.hint());
        // Any retry the SDK got to before a sleep long enough to catch is numbered as the SDK's own.
        for (int i = 1; i < result.trace().calls().size(); i++) {
            assertEquals(i, result.trace().calls().get(i).sdkRetry());
        }
    }

    @Test
    void theRetryStackAuditNamesGoogleGenaisOwnFixWhereItsRetriesMadeCalls() throws Exception {
        // Backoff of a millisecond, under the harness's real-sleep bound: the SDK's retries go out and are counted.
        Rehearsal r = project(new GeminiLoop(run -> HarnessGenai.builder(run).customize(o -> o.retryOptions(
                com.google.genai.types.HttpRetryOptions.builder().attempts(3).initialDelay(0.001).maxDelay(0.001)
                        .jitter(0.0).build())).build()));
        ScenarioResult result = check(r, "quota-storm");
        assertTrue(result.trace().calls().stream().anyMatch(CallRecord::bySdk), "the SDK retried on its own");
        List<Violation> audited = result.violations().stream().filter(v -> v.message().contains(GenaiSdk.LABEL
                + " made")).toList();
        assertFalse(audited.isEmpty(), result.violations().toString());
        for (Violation v : audited) {
            assertTrue(v.hint().startsWith("google-genai "), v.hint());
            assertTrue(v.hint().contains("build the client with HttpOptions.retryOptions(HttpRetryOptions.builder()"
                    + ".attempts(1).httpStatusCodes(List.of())) and a timeout (HarnessGenai.builder(run).noRetries()"
                    + ".timeout(...))"), v.hint());
        }
        result.violations().forEach(v -> assertFalse(v.line().contains("maxRetries"), v.line()));
    }
}
