package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.StreamTrace;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.model.ChatModel;

/** {@code OpenAiChatModel.stream(Prompt)} through the same HTTP client: recorded completions arrive as events. */
class StreamingTest {

    @TempDir
    Path dir;

    private ScenarioResult check(String scenario, Function<LoopRun, ChatModel> models) throws Exception {
        Workspace ws = Workspace.in(dir);
        return ws.rehearsal(() -> TeamLoop.streaming(models)).check(ws.scenario(scenario), 2,
                Rehearsal.RUN_INVARIANTS);
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
    void aStreamedRunIsAnsweredFromTheCassettesOfTheCalls() throws Exception {
        ScenarioResult result = check("calm", HarnessSpringAiTest.DEFAULTS);
        assertEquals(List.of(), result.violations(), lines(result));
        List<Outcome> outcomes = result.trace().outcomes();
        assertEquals("1. Reproduce the failure. 2. Make Range.contains include its upper bound. 3. Add a test for the"
                + " bound.", outcomes.get(0).value().get("text").asString());
        assertEquals("apply_patch", outcomes.get(1).value().path("tool_calls").path(0).path("name").asString());
        assertEquals("{\"file\":\"src/main/java/Range.java\",\"diff\":\"-        return x < hi;\\n+        return x <= hi;\"}",
                outcomes.get(1).value().path("tool_calls").path(0).path("arguments").asString());
    }

    @Test
    void aStreamsSdkRetriesOnA429AreNamedInTheBudgetAsForCalls() throws Exception {
        ScenarioResult result = check("quota-four-times", HarnessSpringAiTest.DEFAULTS);
        assertEquals(List.of(0, 1, 2, 3), result.trace().calls().stream().map(CallRecord::sdkRetry).toList());
        assertEquals(Status.STOPPED, result.trace().outcomes().get(0).status());
        Violation budget = result.violations().stream().filter(v -> v.invariant() == Invariant.BUDGET).findFirst()
                .orElseThrow(() -> new AssertionError(lines(result)));
        assertTrue(budget.hint().startsWith("spring-ai-openai retried 3 times"), budget.hint());
    }

    @Test
    void aStreamsFirstTokenArrivesLateOnTheVirtualClock() throws Exception {
        ScenarioResult result = check("slow-first-token", HarnessSpringAiTest.NO_SDK_RETRIES);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(3500L, result.trace().outcomes().get(0).elapsedMs());
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void aFirstTokenLaterThanTheReadTimeoutFailsTheStreamAfterItsHeaders() throws Exception {
        Function<LoopRun, ChatModel> twoSeconds = run -> HarnessSpringAi.builder(run)
                .options(org.springframework.ai.openai.OpenAiChatOptions.builder()
                        .timeout(java.time.Duration.ofSeconds(2)).build())
                .build();
        ScenarioResult result = check("first-token-past-read-timeout", twoSeconds);
        assertEquals(List.of(), result.violations(), lines(result));
        List<CallRecord> calls = result.trace().calls();
        assertEquals(CallRecord.Result.TRANSIENT, calls.get(0).result());
        // The headers had come: the SDK's retry layer was done, and the loop made the second call itself.
        assertEquals(0, calls.get(1).sdkRetry());
        assertEquals(2, result.trace().outcomes().get(0).attempts());
    }

    @Test
    void aBrokenToolCallInAStreamIsRepaired() throws Exception {
        ScenarioResult result = check("broken-tool-call", HarnessSpringAiTest.NO_SDK_RETRIES);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(CallRecord.Result.SCHEMA, result.trace().calls().get(0).result());
    }

    @Test
    void withMaxRetriesZeroEveryScenarioPassesStreamed() throws Exception {
        for (String scenario : List.of("quota-four-times", "quota-retry-after-2s", "timeout-then-ok",
                "server-errors", "crash-in-patch", "broken-tool-call-no-repair")) {
            ScenarioResult result = check(scenario, HarnessSpringAiTest.NO_SDK_RETRIES);
            assertEquals(List.of(), result.violations(), scenario + ":\n" + lines(result));
        }
    }

    @Test
    void aCrashDuringAStreamReachesTheLoopWrappedByTheAsynchronousClient() throws Exception {
        Workspace ws = Workspace.in(dir);
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
        ws.rehearsal(() -> run -> {
            try (var scope = run.op("plan")) {
                HarnessSpringAi.chatModel(run).stream(new org.springframework.ai.chat.prompt.Prompt(
                        TeamLoop.PROMPTS.get("plan"))).blockLast();
            } catch (RuntimeException e) {
                thrown.compareAndSet(null, e);
                throw e;
            }
            return List.of();
        }).run(ws.scenario("quota-once").withFaults(List.of(new dev.resilienceharness.fault.CrashFault())), null);
        // A loop that streams must unwrap it and let the Error through, as TeamLoop does, to restart as a process.
        assertTrue(thrown.get() instanceof java.util.concurrent.CompletionException, String.valueOf(thrown.get()));
        assertTrue(thrown.get().getCause() instanceof dev.resilienceharness.transport.ProcessRecycled,
                String.valueOf(thrown.get().getCause()));
    }

    /** What the stream of {@code plan} brings, as the recorded answer splits into chunks. */
    private static final String PLAN = "1. Reproduce the failure. 2. Make Range.contains include its upper bound."
            + " 3. Add a test for the bound.";

    @Test
    void aCutReachesStreamEventByEventAndTheRetryAssemblesTheTextOnce() throws Exception {
        long t0 = System.nanoTime();
        ScenarioResult result = check("cut-then-ok", HarnessSpringAiTest.NO_SDK_RETRIES);
        assertEquals(List.of(), result.violations(), lines(result));
        List<CallRecord> calls = result.trace().calls();
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK),
                calls.stream().map(CallRecord::result).toList(), "the cut, then the loop's retry");
        assertEquals(List.of("stream_cut", "none"), calls.stream().map(CallRecord::fault).toList());
        StreamTrace cut = result.trace().streams().get(0);
        assertEquals("cut", cut.end());
        assertEquals(3, cut.arrived(), "the role chunk and two pieces reached the SDK's parser before the cut");
        assertEquals(PLAN.substring(0, 32), cut.partialText());
        StreamTrace retry = result.trace().streams().get(1);
        assertEquals("done", retry.end());
        assertTrue(retry.eventNanos().get(0) >= cut.endNanos() + 10_000_000L,
                "the retry's events come after the cut and the loop's backoff, on the virtual clock");
        assertEquals(PLAN, result.trace().outcomes().get(0).value().get("text").asString(), "the text assembled once");
        assertEquals(2, result.trace().outcomes().get(0).attempts());
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "no real waiting");
    }

    @Test
    void anErrorEventMidStreamFailsTheStreamAndIsRetriedByTheLoop() throws Exception {
        ScenarioResult result = check("error-event-then-ok", HarnessSpringAiTest.NO_SDK_RETRIES);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals("error_event", result.trace().streams().get(0).end());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList());
    }

    @Test
    void withItsDefaultsABrokenStreamIsNotRetriedBySpringAiOrTheSdkAndEachAttemptIsTheLoops() throws Exception {
        ScenarioResult result = check("cut-three-times", HarnessSpringAiTest.DEFAULTS);
        List<CallRecord> calls = result.trace().calls();
        // The headers had come before the cut: the SDK's retry layer (two retries by default) was done with the
        // request, so each call is the loop's own attempt, retry number 0, and no budget line names the SDK.
        assertEquals(List.of(0, 0, 0), calls.stream().map(CallRecord::sdkRetry).toList());
        assertTrue(calls.stream().allMatch(c -> c.sdk().equals(HarnessSpringAi.SDK)), calls.toString());
        assertEquals(List.of("cut", "cut", "cut"), result.trace().streams().stream().map(StreamTrace::end).toList());
        assertEquals(Status.DEGRADED, result.trace().outcomes().get(0).status());
        assertEquals(3, result.trace().outcomes().get(0).attempts());
        assertTrue(result.violations().stream().noneMatch(v -> v.invariant() == Invariant.BUDGET), lines(result));
    }
}
