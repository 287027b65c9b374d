package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.chat.ChatModel;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A team's langchain4j loop rehearsed through {@link HarnessLangChain4j}: the real {@code OpenAiChatModel} of
 * langchain4j-open-ai, default-configured or as production configures it, on scenario runs.
 */
class HarnessLangChain4jTest {

    private static final String POLICY = "{max_total_wait: 30s, schema: {repair_attempts: 0}}";

    private static final String SCENARIOS = """
              - name: quota
                ops: [plan]
                faults: [quota]
                expect: {status: [stopped]}
              - name: quota-with-retry-after
                ops: [plan]
                faults: [{quota: {retry_after: "1"}}]
              - name: server-error-then-ok
                ops: [plan, review]
                faults: [{server_error: {status: 503}}, none]
                expect: {status: [ok, ok], attempts: [2, 1]}
              - name: timeout-then-ok
                ops: [plan]
                faults: [timeout, none]
                expect: {status: [ok], attempts: [2]}
              - name: crash-mid-run
                ops: [plan, patch, review]
                faults: [none, crash]
                expect: {status: [ok, ok, ok]}
              - name: slow-first-token
                ops: [plan, review]
                faults: [{slow_first_token: {elapsed_ms: 3500}}]
                expect: {status: [ok, ok]}
              - name: broken-tool-call
                ops: [patch]
                faults: [bad_tool_call]
                expect: {status: [degraded], reason: [schema], attempts: [1]}
              - name: undecodable
                ops: [summary]
              - name: calm
                ops: [plan, patch, review]
                expect: {status: [ok, ok, ok]}
            """;

    private static final String SDK = "langchain4j-open-ai 1.19.0";

    @TempDir
    Path dir;

    private final List<Throwable> seen = new CopyOnWriteArrayList<>();

    private ScenarioResult run(String scenario, Function<LoopRun, ChatModel> models) throws Exception {
        return run(scenario, models, TeamLoop.PROMPTS);
    }

    private ScenarioResult run(String scenario, Function<LoopRun, ChatModel> models, Map<String, String> prompts)
            throws Exception {
        Project project = new Project(dir, POLICY, SCENARIOS);
        Rehearsal rehearsal = project.rehearsal(() -> new TeamLoop(models, prompts, seen));
        return project.check(rehearsal, scenario);
    }

    private static ChatModel defaults(LoopRun run) {
        return HarnessLangChain4j.chatModel(run, "gpt-4o-mini");
    }

    private static ChatModel noRetries(LoopRun run) {
        return HarnessLangChain4j.builder(run).modelName("gpt-4o-mini").maxRetries(0).build();
    }

    private static List<Violation> of(ScenarioResult result, Invariant invariant) {
        return result.violations().stream().filter(v -> v.invariant() == invariant).toList();
    }

    @Test
    void aDefaultModelMeetingA429IsReportedAsLangchain4jsRealRetrySleep() throws Exception {
        ScenarioResult result = run("quota", HarnessLangChain4jTest::defaults);

        List<Violation> waits = of(result, Invariant.BOUNDED_WAIT);
        assertEquals(1, waits.size(), Project.lines(result).toString());
        Violation wait = waits.get(0);
        assertEquals("plan", wait.op());
        assertEquals("0 ms of real time", wait.bound());
        assertTrue(wait.message().startsWith("slept "), wait.message());
        assertTrue(wait.message().contains(" ms in real time in dev.langchain4j.internal.RetryUtils$RetryPolicy"
                + ".sleep("),
                wait.message());
        assertTrue(wait.message().endsWith("(the harness interrupted it)"), wait.message());
        assertEquals("langchain4j's retry layer waits with Thread.sleep, which no clock can replace: build the model"
                + " with maxRetries(0) and let your loop retry, waiting on run.sleeper()", wait.hint());
        assertTrue(wait.line().startsWith("quota [bounded_wait] op 'plan': slept "), wait.line());
        assertTrue(wait.line().contains(" ms in real time in dev.langchain4j.internal.RetryUtils$RetryPolicy.sleep("
                + "RetryUtils.java:"), wait.line());
        assertTrue(wait.line().contains(") (the harness interrupted it) (bound 0 ms of real time, actual "),
                wait.line());
        assertTrue(wait.line().endsWith(" ms of real time). " + wait.hint()), wait.line());
        // The interrupted sleep ended langchain4j's retries: one attempt reached the provider, and none was virtual.
        List<CallRecord> calls = result.trace().calls();
        assertEquals(1, calls.size());
        assertEquals(SDK, calls.get(0).sdk());
        assertEquals(CallRecord.Result.QUOTA, calls.get(0).result());
        assertEquals(Duration.ZERO, result.trace().totalWait());
        // The watch may see the interrupted thread still asleep once more before it wakes; one finding is reported.
        assertFalse(result.trace().realSleeps().isEmpty());
    }

    @Test
    void maxRetriesZeroPassesTheSameQuota() throws Exception {
        ScenarioResult result = run("quota", HarnessLangChain4jTest::noRetries);

        assertEquals(List.of(), Project.lines(result));
        assertEquals(List.of(Status.STOPPED), result.trace().outcomes().stream().map(o -> o.status()).toList());
        assertEquals(1, result.trace().calls().size());
        assertEquals(0, result.trace().calls().get(0).sdkRetry());
        assertEquals(List.of(), result.trace().realSleeps());
        assertInstanceOf(RateLimitException.class, seen.get(0));
    }

    @Test
    void aRetryAfterNeverReachesLangchain4jSoItsOwnBackoffStillSleepsForReal() throws Exception {
        ScenarioResult withDefaults = run("quota-with-retry-after", HarnessLangChain4jTest::defaults);
        // The 429 said "Retry-After: 1"; langchain4j's HttpException carries no headers, so its retry layer slept
        // its own backoff for real, and nothing waited the stated second on the virtual clock.
        assertEquals("1", withDefaults.trace().calls().get(0).retryAfter());
        assertEquals(1, of(withDefaults, Invariant.BOUNDED_WAIT).size(), Project.lines(withDefaults).toString());
        assertTrue(of(withDefaults, Invariant.BOUNDED_WAIT).get(0).message().contains("dev.langchain4j.internal"));
        assertEquals(List.of(), withDefaults.trace().waits());

        seen.clear();
        ScenarioResult bare = run("quota-with-retry-after", HarnessLangChain4jTest::noRetries);
        // With maxRetries(0) the loop gets the 429 at once, as a RateLimitException that cannot say how long to wait,
        // so it cannot log the retry_after the policy table requires either: the harness says so.
        assertEquals(List.of("quota-with-retry-after [expectations] op 'plan': its outcome lacks retry_after, which a"
                + " quota rejection with Retry-After \"1\" requires. Record the fields the policy table requires for"
                + " each failure: retry_after, reason quota, attempts, reason schema, elapsed_ms and the lowered"
                + " concurrency (Outcome.stopped, Outcome.degraded, Outcome.slow)"), Project.lines(bare));
        assertEquals(1, bare.trace().calls().size());
        assertEquals(null, bare.trace().outcomes().get(0).retryAfter());
        assertEquals(List.of(), bare.trace().waits());
        assertInstanceOf(RateLimitException.class, seen.get(0));
    }

    @Test
    void aServerErrorIsRetriedByTheLoopOnTheVirtualClock() throws Exception {
        ScenarioResult result = run("server-error-then-ok", HarnessLangChain4jTest::noRetries);

        assertEquals(List.of(), Project.lines(result));
        List<CallRecord> calls = result.trace().calls();
        assertEquals(3, calls.size());
        assertEquals(503, calls.get(0).status());
        assertEquals(CallRecord.Result.TRANSIENT, calls.get(0).result());
        // The loop's backoff (base_delay 10 ms), not the SDK's: a virtual wait by nobody but the loop.
        assertEquals(1, result.trace().waits().size());
        assertEquals(Duration.ofMillis(10).toNanos(), result.trace().waits().get(0).nanos());
        assertEquals(null, result.trace().waits().get(0).by());
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void aDefaultModelMeetingA503SleepsForRealInItsRetryLayer() throws Exception {
        ScenarioResult result = run("server-error-then-ok", HarnessLangChain4jTest::defaults);

        assertEquals(1, of(result, Invariant.BOUNDED_WAIT).size(), Project.lines(result).toString());
        assertTrue(of(result, Invariant.BOUNDED_WAIT).get(0).hint().contains("maxRetries(0)"));
        assertEquals(1, result.trace().calls().size());
    }

    @Test
    void aTimeoutIsLangchain4jsOwnTimeoutAfterTheModelsReadTimeout() throws Exception {
        ScenarioResult result = run("timeout-then-ok", run -> HarnessLangChain4j.builder(run)
                .modelName("gpt-4o-mini").maxRetries(0).timeout(Duration.ofSeconds(5)).build());

        assertEquals(List.of(), Project.lines(result));
        assertInstanceOf(dev.langchain4j.exception.TimeoutException.class, seen.get(0));
        assertInstanceOf(java.net.http.HttpTimeoutException.class, seen.get(0).getCause());
        List<CallRecord> calls = result.trace().calls();
        assertEquals(2, calls.size());
        assertEquals(CallRecord.Result.TRANSIENT, calls.get(0).result());
        // The attempt waited the model's 5 s read timeout on the virtual clock, then the loop's 10 ms backoff.
        assertEquals(Duration.ofSeconds(5).plusMillis(10).toNanos(), calls.get(1).atNanos());
        // The loop's retry of the same request, after its own wait, is the loop's call, not the SDK's.
        assertEquals(0, calls.get(1).sdkRetry());
    }

    @Test
    void aDefaultModelRetriesATimeoutItselfAndSoSleepsForReal() throws Exception {
        ScenarioResult result = run("timeout-then-ok", HarnessLangChain4jTest::defaults);

        List<Violation> waits = of(result, Invariant.BOUNDED_WAIT);
        assertEquals(1, waits.size(), Project.lines(result).toString());
        assertTrue(waits.get(0).message().contains("dev.langchain4j.internal.RetryUtils$RetryPolicy.sleep("));
        assertEquals(1, result.trace().calls().size());
        assertEquals(List.of(), seen, "langchain4j held the timeout in its retry layer; the loop got only the"
                + " interrupted retry, no TimeoutException");
    }

    @Test
    void aLoopRetryingAtOnceIsStillTheLoopsCallNotTheSdks() throws Exception {
        Project project = new Project(dir, "{max_total_wait: 30s, base_delay: 0ms}", """
                  - name: timeout-then-ok
                    ops: [plan]
                    faults: [timeout, none]
                    expect: {status: [ok], attempts: [2]}
                """);
        Rehearsal rehearsal = project.rehearsal(() -> new TeamLoop(HarnessLangChain4jTest::noRetries, seen));
        ScenarioResult result = project.check(rehearsal, "timeout-then-ok");

        assertEquals(List.of(), Project.lines(result));
        List<CallRecord> calls = result.trace().calls();
        assertEquals(2, calls.size());
        // Same body, same thread, no wait in between: only the chat call boundary tells the loop's retry apart.
        assertEquals(0, calls.get(0).sdkRetry());
        assertEquals(0, calls.get(1).sdkRetry());
        assertFalse(calls.get(1).bySdk());
    }

    @Test
    void aCrashResumesFromTheJournal() throws Exception {
        ScenarioResult result = run("crash-mid-run", HarnessLangChain4jTest::defaults);

        assertEquals(List.of(), Project.lines(result));
        assertEquals(1, result.trace().restarts().size());
        List<String> ops = result.trace().calls().stream().map(CallRecord::op).toList();
        // plan is journaled before the crash and never called again; patch is called again after the restart.
        assertEquals(List.of("plan", "patch", "patch", "review"), ops);
        assertEquals(CallRecord.Result.CRASH, result.trace().calls().get(1).result());
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void aSlowFirstTokenIsAnOkAnswerThatHalvesConcurrency() throws Exception {
        ScenarioResult result = run("slow-first-token", HarnessLangChain4jTest::defaults);

        assertEquals(List.of(), Project.lines(result));
        var plan = result.trace().outcomes().get(0);
        assertEquals(Status.OK, plan.status());
        assertEquals(3500L, plan.elapsedMs());
        assertEquals(2, plan.concurrency());
        assertEquals(null, result.trace().outcomes().get(1).elapsedMs());
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void aFirstTokenPastTheReadTimeoutIsATimeoutTheLoopRetries() throws Exception {
        ScenarioResult result = run("slow-first-token", run -> HarnessLangChain4j.builder(run)
                .modelName("gpt-4o-mini").maxRetries(0).timeout(Duration.ofSeconds(2)).build());

        assertInstanceOf(dev.langchain4j.exception.TimeoutException.class, seen.get(0));
        List<CallRecord> calls = result.trace().calls();
        assertEquals(CallRecord.Result.TRANSIENT, calls.get(0).result());
        assertEquals(List.of(2, 1), result.trace().outcomes().stream().map(o -> o.attempts()).toList());
        // The expectation (ok, ok) holds; attempts were not stated, so the run passes.
        assertEquals(List.of(), Project.lines(result));
    }

    @Test
    void aBrokenToolCallReachesTheLoopUnretriedAndDegrades() throws Exception {
        ScenarioResult result = run("broken-tool-call", HarnessLangChain4jTest::defaults);

        assertEquals(List.of(), Project.lines(result));
        assertEquals(1, result.trace().calls().size());
        assertEquals(CallRecord.Result.SCHEMA, result.trace().calls().get(0).result());
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void aDefaultModelRetriesA200ItCannotDecodeAndSoSleepsForReal() throws Exception {
        ScenarioResult result = run("undecodable", HarnessLangChain4jTest::defaults);

        List<Violation> waits = of(result, Invariant.BOUNDED_WAIT);
        assertEquals(1, waits.size(), Project.lines(result).toString());
        assertTrue(waits.get(0).message().contains("dev.langchain4j.internal.RetryUtils$RetryPolicy.sleep("));
        assertEquals(CallRecord.Result.OK, result.trace().calls().get(0).result());
    }

    @Test
    void withMaxRetriesZeroTheUndecodable200ReachesTheLoopAtOnce() throws Exception {
        ScenarioResult result = run("undecodable", HarnessLangChain4jTest::noRetries);

        assertEquals(1, result.trace().calls().size());
        assertEquals(List.of(), result.trace().realSleeps());
        // langchain4j hands the decoding failure on as a plain RuntimeException, which this loop does not expect.
        List<Violation> partial = of(result, Invariant.PARTIAL_WORK);
        assertEquals(1, partial.size(), Project.lines(result).toString());
        assertTrue(partial.get(0).message().startsWith("the loop threw RuntimeException: "), partial.get(0).message());
    }

    @Test
    void aCassetteMissIsTheHarnessMissNotAMissingModel() throws Exception {
        Map<String, String> prompts = new HashMap<>(TeamLoop.PROMPTS);
        prompts.put("plan", "plan the fix, and quickly");
        ScenarioResult result = run("calm", HarnessLangChain4jTest::defaults, prompts);

        Throwable thrown = seen.get(0);
        assertFalse(thrown instanceof ModelNotFoundException);
        CassetteMissException miss = assertInstanceOf(CassetteMissException.class, thrown);
        assertTrue(miss.getMessage().startsWith("no cassette for op 'plan': looked for "), miss.getMessage());
        assertTrue(miss.getMessage().contains("messages[0].content"), miss.getMessage());
        assertEquals(miss.getMessage(), miss.miss().getMessage());
        List<Violation> cassettes = of(result, Invariant.CASSETTES);
        assertEquals(1, cassettes.size(), Project.lines(result).toString());
        assertEquals(miss.getMessage(), cassettes.get(0).message());
        // langchain4j did not retry it: no real sleep, one call's worth of nothing.
        assertEquals(List.of(), result.trace().realSleeps());
        assertEquals(1, seen.size());
    }

    @Test
    void aLoopThatThrowsTheMissOnIsReportedAsTheMissNotAsTheLoopThrowing() throws Exception {
        Project project = new Project(dir, POLICY, SCENARIOS);
        Rehearsal rehearsal = project.rehearsal(() -> run -> {
            try (var op = run.op("plan")) {
                HarnessLangChain4j.chatModel(run, "gpt-4o-mini").chat("plan something else");
            }
            return List.of();
        });
        ScenarioResult result = project.check(rehearsal, "calm");

        assertEquals(List.of(), of(result, Invariant.PARTIAL_WORK), Project.lines(result).toString());
        List<Violation> cassettes = of(result, Invariant.CASSETTES);
        assertEquals(1, cassettes.size(), Project.lines(result).toString());
        assertTrue(cassettes.get(0).message().startsWith("no cassette for op 'plan': looked for "),
                cassettes.get(0).message());
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void aCalmRunPassesWithLangchain4jsDefaults() throws Exception {
        ScenarioResult result = run("calm", HarnessLangChain4jTest::defaults);

        assertEquals(List.of(), Project.lines(result));
        List<String> sdks = new ArrayList<>();
        result.trace().calls().forEach(c -> sdks.add(c.sdk()));
        assertEquals(List.of(SDK, SDK, SDK), sdks);
        assertEquals("App.java", result.trace().outcomes().get(1).value().get("arguments").get("file").asString());
        assertEquals(List.of(), seen);
    }
}
