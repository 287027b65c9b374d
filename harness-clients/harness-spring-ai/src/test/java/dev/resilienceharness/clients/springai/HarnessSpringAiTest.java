package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

/** A real Spring AI OpenAiChatModel, defaults and production settings, rehearsed through scenario runs. */
class HarnessSpringAiTest {

    /** As production builds it with {@code spring.ai.openai.max-retries=0}. */
    static final Function<LoopRun, ChatModel> NO_SDK_RETRIES = run -> HarnessSpringAi.builder(run)
            .options(OpenAiChatOptions.builder().maxRetries(0).build())
            .build();

    static final Function<LoopRun, ChatModel> DEFAULTS = HarnessSpringAi::chatModel;

    @TempDir
    Path dir;

    private ScenarioResult check(String scenario, Function<LoopRun, ChatModel> models) throws Exception {
        Workspace ws = Workspace.in(dir);
        Rehearsal rehearsal = ws.rehearsal(() -> new TeamLoop(models));
        return rehearsal.check(ws.scenario(scenario), 2, Rehearsal.RUN_INVARIANTS);
    }

    private static List<Violation> of(ScenarioResult result, Invariant invariant) {
        return result.violations().stream().filter(v -> v.invariant() == invariant).toList();
    }

    private static String lines(ScenarioResult result) {
        StringBuilder sb = new StringBuilder();
        result.violations().forEach(v -> sb.append(v.line()).append('\n'));
        if (result.trace().failure() != null) {
            sb.append(result.trace().failure()).append('\n');
        }
        return sb.toString();
    }

    @Test
    void theSdkLabelNamesSpringAiAndTheOpenaiJavaItShipsWith() {
        assertEquals("spring-ai-openai 2.0.1 (openai-java 4.49.0)", HarnessSpringAi.SDK);
    }

    @Test
    void aCalmRunWithDefaultsPassesEveryInvariant() throws Exception {
        ScenarioResult result = check("calm", DEFAULTS);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        assertEquals(List.of("plan", "patch", "review"), trace.outcomes().stream().map(Outcome::op).toList());
        assertEquals(3, trace.calls().size());
        for (CallRecord call : trace.calls()) {
            assertEquals(HarnessSpringAi.SDK, call.sdk());
            assertEquals(0, call.sdkRetry());
        }
        assertEquals("apply_patch", trace.outcomes().get(1).value().path("tool_calls").path(0).path("name").asString());
    }

    @Test
    void defaultsMeetA429WithoutRetryAfterAndTheBudgetNamesSpringAisOwnRetries() throws Exception {
        ScenarioResult result = check("quota-four-times", DEFAULTS);
        RunTrace trace = result.trace();
        // maxRetries 3: one call of the loop is four HTTP attempts, the SDK numbering its retries 1, 2, 3.
        assertEquals(List.of(0, 1, 2, 3), trace.calls().stream().map(CallRecord::sdkRetry).toList());
        assertTrue(trace.calls().stream().allMatch(c -> c.result() == CallRecord.Result.QUOTA));
        assertEquals(Status.STOPPED, trace.outcomes().get(0).status());
        assertEquals(1, trace.outcomes().get(0).attempts());
        List<Violation> budget = of(result, Invariant.BUDGET);
        assertEquals(1, budget.size(), lines(result));
        Violation v = budget.get(0);
        assertEquals("plan", v.op());
        assertEquals("1 call", v.bound());
        assertEquals("4 calls", v.actual());
        assertTrue(v.message().contains("spring-ai-openai 2.0.1 (openai-java 4.49.0) made 3 of them as its own"
                + " retries, under 1 call of your loop"), v.message());
        assertTrue(v.hint().startsWith("spring-ai-openai retried 3 times before your loop saw the answer: build the"
                + " client with maxRetries(0)"), v.hint());
        // The SDK's backoff waited on the virtual clock, marked as its own: 0.5 s, 1 s and 2 s less up to a quarter.
        List<Long> waits = trace.waits().stream().map(w -> w.nanos() / 1_000_000).toList();
        assertEquals(3, waits.size(), waits.toString());
        assertTrue(trace.waits().stream().allMatch(w -> HarnessSpringAi.SDK.equals(w.by())), trace.waits().toString());
        assertTrue(waits.get(0) >= 375 && waits.get(0) <= 500, waits.toString());
        assertTrue(waits.get(1) >= 750 && waits.get(1) <= 1000, waits.toString());
        assertTrue(waits.get(2) >= 1500 && waits.get(2) <= 2000, waits.toString());
        assertEquals(List.of(), trace.realSleeps());
    }

    @Test
    void defaultsHideAQuotaRejectionFromTheLoop() throws Exception {
        ScenarioResult result = check("quota-once", DEFAULTS);
        RunTrace trace = result.trace();
        assertEquals(Status.OK, trace.outcomes().get(0).status());
        assertEquals(2, trace.calls().size());
        Violation v = of(result, Invariant.BUDGET).get(0);
        assertTrue(v.message().contains("made 1 of them as its own retries"), v.message());
        assertTrue(v.hint().startsWith("spring-ai-openai retried once before your loop saw the answer"), v.hint());
    }

    @Test
    void aRetryAfterIsHonouredByTheSdkOnTheVirtualClock() throws Exception {
        ScenarioResult result = check("quota-retry-after-2s", DEFAULTS);
        RunTrace trace = result.trace();
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(List.of(Status.OK, Status.OK), trace.outcomes().stream().map(Outcome::status).toList());
        assertEquals(1, trace.waits().size(), trace.waits().toString());
        assertEquals(Duration.ofSeconds(2).toNanos(), trace.waits().get(0).nanos());
        assertEquals(HarnessSpringAi.SDK, trace.waits().get(0).by());
        assertEquals(1, trace.calls().get(1).sdkRetry());
        // The wait was virtual: no real sleep on the run's thread, and the SDK's retry went out 2 s after the first
        // attempt on the run's clock, which only its sleeper moves.
        assertEquals(List.of(), trace.realSleeps());
        assertEquals(0L, trace.calls().get(0).atNanos());
        assertEquals(Duration.ofSeconds(2).toNanos(), trace.calls().get(1).atNanos());
    }

    @Test
    void anHttpDateRetryAfterIsReadAgainstTheVirtualClock() throws Exception {
        ScenarioResult result = check("quota-retry-after-date", DEFAULTS);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        // The run starts at 2026-01-01T00:00:00Z on the virtual clock, which the SDK reads the date against.
        assertEquals(1, trace.waits().size(), trace.waits().toString());
        assertEquals(Duration.ofSeconds(5).toNanos(), trace.waits().get(0).nanos());
        assertEquals(HarnessSpringAi.SDK, trace.waits().get(0).by());
    }

    @Test
    void aLongRetryAfterIsWaitedOutUncappedByDefaultsAndReportedUnderBoundedWait() throws Exception {
        ScenarioResult result = check("quota-retry-after-10m", DEFAULTS);
        RunTrace trace = result.trace();
        // openai-java 4.49.0 does what Retry-After says, however long (4.105 would wait 8 s at most); it reads
        // retry-after-ms as a float, so 600000 ms come out 29 microseconds short.
        long off = Duration.ofMinutes(10).minus(trace.totalWait()).abs().toNanos();
        assertTrue(off < 1_000_000, trace.totalWait().toString());
        assertEquals(Status.OK, trace.outcomes().get(0).status());
        List<Violation> waits = of(result, Invariant.BOUNDED_WAIT);
        assertEquals(1, waits.size(), lines(result));
        assertEquals("30000 ms", waits.get(0).bound());
        assertEquals("599999.971328 ms", waits.get(0).actual());
        assertEquals("plan", waits.get(0).op());
        // 600 s is past max_retry_after, so the policy allows no second call either.
        assertEquals(1, of(result, Invariant.BUDGET).size(), lines(result));
        assertEquals(List.of(), trace.realSleeps());
    }

    @Test
    void withMaxRetriesZeroTheLoopsOwnPolicyHandlesEveryFaultAndPasses() throws Exception {
        for (String scenario : List.of("calm", "quota-four-times", "quota-once", "quota-retry-after-2s",
                "quota-retry-after-10m", "timeout-then-ok", "server-errors", "broken-tool-call",
                "broken-tool-call-no-repair", "slow-first-token", "crash-in-patch")) {
            ScenarioResult result = check(scenario, NO_SDK_RETRIES);
            assertEquals(List.of(), result.violations(), scenario + ":\n" + lines(result));
            assertTrue(result.trace().calls().stream().noneMatch(CallRecord::bySdk), scenario);
        }
    }

    @Test
    void maxRetriesZeroStopsAtTheFirst429WithoutRetryAfter() throws Exception {
        ScenarioResult result = check("quota-four-times", NO_SDK_RETRIES);
        RunTrace trace = result.trace();
        assertEquals(1, trace.calls().size());
        Outcome stopped = trace.outcomes().get(0);
        assertEquals(Status.STOPPED, stopped.status());
        assertNull(stopped.retryAfter());
        assertEquals(Duration.ZERO, trace.totalWait());
    }

    @Test
    void serverErrorsUnderDefaultsAreRetriedByTheSdkPastThePolicysAttempts() throws Exception {
        ScenarioResult result = check("server-errors", DEFAULTS);
        RunTrace trace = result.trace();
        // Three 503s, then the SDK's fourth attempt is answered: the loop never saw a failure.
        assertEquals(4, trace.calls().size());
        assertEquals(Status.OK, trace.outcomes().get(0).status());
        Violation v = of(result, Invariant.BUDGET).get(0);
        assertEquals("3 calls", v.bound());
        assertEquals("4 calls", v.actual());
        assertFalse(of(result, Invariant.EXPECTATIONS).isEmpty(), lines(result));
    }

    @Test
    void aTimeoutIsTheSdksOwnIoTimeoutAndItsRetryFitsThePolicy() throws Exception {
        Workspace ws = Workspace.in(dir);
        Rehearsal rehearsal = ws.rehearsal(() -> new TeamLoop(DEFAULTS));
        // One run: the SDK's jittered backoff is inside the call the loop times, so two runs differ (see below).
        ScenarioResult result = rehearsal.check(ws.scenario("timeout-then-ok"), 1,
                EnumSet.of(Invariant.BUDGET, Invariant.BOUNDED_WAIT, Invariant.PARTIAL_WORK, Invariant.EXPECTATIONS));
        RunTrace trace = result.trace();
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(CallRecord.Result.TRANSIENT, trace.calls().get(0).result());
        assertEquals(1, trace.calls().get(1).sdkRetry());
        assertEquals(1, trace.outcomes().get(0).attempts());
        // The loop's one call took Spring AI's 60 s timeout plus the SDK's 375-500 ms backoff: a hidden timeout
        // looks to the loop like a slow answer.
        long elapsed = trace.outcomes().get(0).elapsedMs();
        assertTrue(elapsed >= 60_375 && elapsed <= 60_500, elapsed + " ms");
    }

    @Test
    void aCrashKillsTheProcessThroughTheSdkAndTheLoopResumesFromItsJournal() throws Exception {
        for (Function<LoopRun, ChatModel> models : List.of(DEFAULTS, NO_SDK_RETRIES)) {
            ScenarioResult result = check("crash-in-patch", models);
            RunTrace trace = result.trace();
            assertEquals(List.of(), result.violations(), lines(result));
            assertEquals(1, trace.restarts().size());
            assertFalse(trace.restarts().get(0).swallowed());
            assertEquals(List.of("plan"), trace.restarts().get(0).journaled().stream().map(Outcome::op).toList());
            // plan once, patch crashed, then patch and review in the fresh process: no SDK retried the crash.
            assertEquals(List.of("plan", "patch", "patch", "review"),
                    trace.calls().stream().map(CallRecord::op).toList());
            assertTrue(trace.calls().stream().noneMatch(CallRecord::bySdk));
        }
    }

    @Test
    void aSlowFirstTokenArrivesLateOnTheVirtualClockAndHalvesTheConcurrency() throws Exception {
        ScenarioResult result = check("slow-first-token", DEFAULTS);
        assertEquals(List.of(), result.violations(), lines(result));
        Outcome slow = result.trace().outcomes().get(0);
        assertEquals(Status.OK, slow.status());
        assertEquals(3500L, slow.elapsedMs());
        assertEquals(2, slow.concurrency());
        assertNull(result.trace().outcomes().get(1).elapsedMs());
        assertEquals(Duration.ZERO, result.trace().totalWait());
    }

    @Test
    void anAnswerLaterThanTheTimeoutIsATimeoutTheLoopRetries() throws Exception {
        Function<LoopRun, ChatModel> twoSeconds = run -> HarnessSpringAi.builder(run)
                .options(OpenAiChatOptions.builder().timeout(Duration.ofSeconds(2)).maxRetries(0).build())
                .build();
        ScenarioResult result = check("first-token-past-read-timeout", twoSeconds);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        assertEquals(CallRecord.Result.TRANSIENT, trace.calls().get(0).result());
        assertEquals(CallRecord.Result.OK, trace.calls().get(1).result());
        // The first attempt gave up at the 2 s timeout, then the loop backed off 10 ms.
        assertEquals(2_010_000_000L, trace.calls().get(1).atNanos());
    }

    @Test
    void anAnswerLaterThanTheTimeoutIsRetriedByTheSdkUnderItsDefaults() throws Exception {
        Function<LoopRun, ChatModel> twoSeconds = run -> HarnessSpringAi.builder(run)
                .options(OpenAiChatOptions.builder().timeout(Duration.ofSeconds(2)).build())
                .build();
        ScenarioResult result = check("first-token-past-read-timeout", twoSeconds);
        RunTrace trace = result.trace();
        assertEquals(1, trace.calls().get(1).sdkRetry());
        assertEquals(1, trace.outcomes().get(0).attempts());
        // The loop expected to make the second call itself.
        assertFalse(of(result, Invariant.EXPECTATIONS).isEmpty(), lines(result));
    }

    @Test
    void aBrokenToolCallReachesTheLoopAsUnparsableArgumentsAndIsRepairedOnce() throws Exception {
        ScenarioResult result = check("broken-tool-call", DEFAULTS);
        assertEquals(List.of(), result.violations(), lines(result));
        RunTrace trace = result.trace();
        assertEquals(CallRecord.Result.SCHEMA, trace.calls().get(0).result());
        assertEquals(CallRecord.Result.OK, trace.calls().get(1).result());
        assertEquals(2, trace.outcomes().get(0).attempts());
        // A 200 is not retried by the SDK, whatever its tool calls hold.
        assertTrue(trace.calls().stream().noneMatch(CallRecord::bySdk));
    }

    @Test
    void aBrokenToolCallDegradesAtOnceWithoutRepairs() throws Exception {
        ScenarioResult result = check("broken-tool-call-no-repair", DEFAULTS);
        assertEquals(List.of(), result.violations(), lines(result));
        Outcome degraded = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, degraded.status());
        assertEquals("schema", degraded.reason());
    }

    @Test
    void aCallMadeOutsideAnyOpScopeIsAttributedByTheLabelOfTheCassetteThatAnswersIt() throws Exception {
        Workspace ws = Workspace.in(dir);
        RunTrace trace = ws.rehearsal(() -> run -> {
            ChatModel model = HarnessSpringAi.chatModel(run);
            for (String op : run.ops()) {
                model.call(new org.springframework.ai.chat.prompt.Prompt(TeamLoop.PROMPTS.get(op)));
            }
            return List.of();
        }).run(ws.scenario("slow-first-token"), null);
        assertNull(trace.failure());
        assertEquals(List.of("plan", "review"), trace.calls().stream().map(CallRecord::op).toList());
    }

    @Test
    void aPromptNoCassetteAnswersIsAClearCassetteMissNotAnSdkError() throws Exception {
        Workspace ws = Workspace.in(dir);
        Rehearsal rehearsal = ws.rehearsal(() -> new TeamLoop(DEFAULTS,
                java.util.Map.of("plan", "Plan the fix for the failing RangeTest, briefly")));
        ScenarioResult result = rehearsal.check(ws.scenario("quota-once"), 1, Rehearsal.RUN_INVARIANTS);
        RunTrace trace = result.trace();
        assertEquals(RunTrace.Kind.CASSETTE, trace.failure().kind(), lines(result));
        String message = trace.failure().message();
        assertTrue(message.contains("'plan'"), message);
        assertTrue(message.contains("messages[0].content"), message);
        assertFalse(message.toLowerCase().contains("model"), message);
        assertEquals(1, result.violations().stream().filter(v -> v.invariant() == Invariant.CASSETTES).count(),
                lines(result));
        // The miss is no fault the SDK retries: nothing was sent again.
        assertEquals(0, trace.calls().size());
    }

    @Test
    void theModelTheTeamBuildsFromItsOptionsSendsTheSameRequestAsTheDefaults() throws Exception {
        Function<LoopRun, ChatModel> production = run -> HarnessSpringAi.builder(run)
                .options(OpenAiChatOptions.builder().model("gpt-5-mini").maxRetries(0)
                        .timeout(Duration.ofSeconds(30)).build())
                .build();
        ScenarioResult result = check("calm", production);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(3, result.trace().calls().size());
    }

}
