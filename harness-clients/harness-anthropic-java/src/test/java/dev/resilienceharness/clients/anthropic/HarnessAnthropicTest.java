package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.scenario.SetupException;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.RunTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A loop a team writes with anthropic-java, given {@link HarnessAnthropic}'s client, rehearsed on the scenarios the
 * policy table names: the SDK's own retries, its Retry-After handling, crashes, slow first tokens, broken tool calls
 * and cassette misses, all on the virtual clock.
 */
class HarnessAnthropicTest {


    private static final String YAML = """
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
              - name: quota-with-retry-after
                ops: [plan, patch, review]
                faults: [{quota: {retry_after: "20"}}]
                expect: {status: [ok, ok, ok], attempts: [1, 1, 1]}
              - name: retry-after-past-the-wait-bound
                ops: [plan, patch, review]
                faults: [{quota: {retry_after: "120"}}]
              - name: quota-stops
                ops: [plan, patch, review]
                faults: [none, quota]
                expect: {status: [ok, stopped], retry_after: [null, null]}
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
              - name: slow-past-the-read-timeout
                ops: [plan, patch, review]
                faults: [{slow_first_token: {elapsed_ms: 3500}}, none]
                expect: {status: [ok, ok, ok], attempts: [2, 1, 1]}
              - name: overloaded
                ops: [plan, patch, review]
                faults: [{server_error: {status: 529}}, {server_error: {status: 529}}, {server_error: {status: 529}}]
              - name: unrecorded
                ops: [plan]
              - name: injected-bad-tool-call
                ops: [plan, patch, review]
                faults: [none, bad_tool_call]
            """;

    @TempDir
    Path dir;

    private Rehearsals defaults() {
        return Rehearsals.of(dir, YAML, "cassettes", new FixLoop(HarnessAnthropic::client));
    }

    private Rehearsals noSdkRetries() {
        return Rehearsals.of(dir, YAML, "cassettes",
                new FixLoop(run -> HarnessAnthropic.builder(run).maxRetries(0).build()));
    }

    /**
     * Checks {@code scenario}, asserting that the run never slept in real time (the harness interrupts a real sleep on
     * the run's thread after 50 ms and records it) and that a run waiting minutes virtually took less real time than
     * that.
     */
    private static ScenarioResult timed(Rehearsals r, String scenario) {
        long start = System.nanoTime();
        ScenarioResult result = r.check(scenario);
        Duration real = Duration.ofNanos(System.nanoTime() - start);
        assertEquals(List.of(), result.trace().realSleeps(), scenario);
        Duration virtual = result.trace().totalWait();
        if (virtual.compareTo(Duration.ofMinutes(1)) >= 0) {
            assertTrue(real.compareTo(virtual) < 0, scenario + " took " + real.toMillis() + " ms of real time for "
                    + virtual.toMillis() + " ms of virtual waiting");
        }
        return result;
    }

    private static List<String> lines(ScenarioResult result) {
        return result.violations().stream().map(Violation::line).collect(Collectors.toList());
    }

    private static List<Violation> of(ScenarioResult result, Invariant invariant) {
        return result.violations().stream().filter(v -> v.invariant() == invariant).collect(Collectors.toList());
    }

    @Test
    void aDefaultClientRetriesA429WithoutRetryAfterTwiceAndTheBudgetNamesTheSdk() {
        ScenarioResult result = timed(defaults(), "quota-without-retry-after");
        RunTrace trace = result.trace();

        // Three HTTP attempts for one call of the loop: the SDK's first and its two retries.
        assertEquals(3, trace.calls().size());
        assertEquals(List.of(0, 1, 2), trace.calls().stream().map(CallRecord::sdkRetry).toList());
        trace.calls().forEach(c -> assertEquals("anthropic-java 3.16.0", c.sdk()));
        assertEquals(List.of(Status.STOPPED), trace.outcomes().stream().map(Outcome::status).toList());
        assertEquals(1, trace.outcomes().get(0).attempts(), "the loop itself saw one 429");

        List<Violation> budget = of(result, Invariant.BUDGET);
        assertEquals(1, budget.size(), lines(result).toString());
        String line = budget.get(0).line();
        assertTrue(line.contains("anthropic-java 3.16.0 made 2 of them as its own retries, under 1 call of your loop"),
                line);
        assertTrue(line.contains("anthropic-java retried 2 times before your loop saw the answer: build the client"
                + " with maxRetries(0)"), line);

        // The SDK's backoff waited on the virtual clock, and the timeline marks its waits as the SDK's.
        assertEquals(2, trace.waits().size());
        trace.waits().forEach(w -> assertEquals("anthropic-java 3.16.0", w.by()));
        assertTrue(trace.totalWait().compareTo(Duration.ofMillis(1125)) >= 0, trace.totalWait().toString());
        assertTrue(trace.totalWait().compareTo(Duration.ofMillis(1500)) <= 0, trace.totalWait().toString());
        // Without the jitter anthropic-java draws from ThreadLocalRandom: its nominal 0.5 s, then 1 s, every run.
        assertEquals(List.of(500_000_000L, 1_000_000_000L), trace.waits().stream().map(w -> w.nanos()).toList());
    }

    @Test
    void overloadedAnswersAreRetriedByTheSdkUnderTheLoopsOwnRetriesAndTheBudgetShowsBothLayers() {
        ScenarioResult result = timed(defaults(), "overloaded");
        RunTrace trace = result.trace();

        // Three 529s: the SDK's first attempt and its two retries; then the loop's own second attempt succeeds.
        assertEquals(List.of(0, 1, 2, 0), trace.calls().subList(0, 4).stream().map(CallRecord::sdkRetry).toList());
        assertEquals(2, trace.outcomes().get(0).attempts());
        Violation budget = of(result, Invariant.BUDGET).get(0);
        assertEquals("plan", budget.op());
        assertEquals("3 calls", budget.bound());
        assertEquals("4 calls", budget.actual());
        assertTrue(budget.message().contains("anthropic-java 3.16.0 made 2 of them as its own retries, under 2 calls"
                + " of your loop"), budget.message());
    }

    @Test
    void aRetryAfterIsHonouredByTheSdkOnTheVirtualClock() {
        ScenarioResult result = timed(defaults(), "quota-with-retry-after");
        RunTrace trace = result.trace();

        assertEquals(List.of(), lines(result));
        assertEquals(4, trace.calls().size());
        assertEquals(CallRecord.Result.QUOTA, trace.calls().get(0).result());
        assertEquals("20", trace.calls().get(0).retryAfter());
        assertEquals(1, trace.calls().get(1).sdkRetry());
        // Twenty seconds, as the header said, waited by the SDK; the test itself took well under a second of it.
        assertEquals(1, trace.waits().size());
        assertEquals(Duration.ofSeconds(20).toNanos(), trace.waits().get(0).nanos());
        assertEquals("anthropic-java 3.16.0", trace.waits().get(0).by());
    }

    @Test
    void aRetryAfterPastMaxTotalWaitIsWaitedOutByTheSdkAndReportedUnderBoundedWait() {
        ScenarioResult result = timed(defaults(), "retry-after-past-the-wait-bound");

        // anthropic-java honours a Retry-After however long it is: 120 s against a bound of 30 s (it reads the
        // header as a float of milliseconds, hence the few nanoseconds over).
        Duration waited = result.trace().totalWait();
        assertTrue(waited.compareTo(Duration.ofSeconds(120)) >= 0 && waited.compareTo(Duration.ofSeconds(121)) < 0,
                waited.toString());
        assertEquals("anthropic-java 3.16.0", result.trace().waits().get(0).by());
        List<Violation> waits = of(result, Invariant.BOUNDED_WAIT);
        assertEquals(1, waits.size(), lines(result).toString());
        assertTrue(waits.get(0).line().contains("waited 120000.004096 ms in total; policy.max_total_wait is 30000 ms"),
                waits.get(0).line());
    }

    @Test
    void withMaxRetriesZeroTheLoopsOwnPolicyPassesEveryScenario() {
        Rehearsals r = noSdkRetries();
        for (String scenario : List.of("quota-stops", "quota-honoured-once", "transient-then-ok", "crash-resumes",
                "slow-first-token")) {
            ScenarioResult result = timed(r, scenario);
            assertEquals(List.of(), lines(result), scenario);
            result.trace().calls().forEach(c -> assertEquals(0, c.sdkRetry(), scenario));
        }
    }

    @Test
    void withMaxRetriesZeroThe429WithoutRetryAfterStopsTheRunWithoutViolations() {
        ScenarioResult result = timed(noSdkRetries(), "quota-without-retry-after");

        assertEquals(List.of(), lines(result));
        assertEquals(1, result.trace().calls().size());
        Outcome stopped = result.trace().outcomes().get(0);
        assertEquals(Status.STOPPED, stopped.status());
        assertNull(stopped.retryAfter());
    }

    @Test
    void aCrashPassesThroughTheSdkUnretriedAndTheLoopResumesFromItsJournal() {
        ScenarioResult result = timed(defaults(), "crash-resumes");
        RunTrace trace = result.trace();

        assertEquals(List.of(), lines(result));
        assertEquals(1, trace.restarts().size());
        assertFalse(trace.restarts().get(0).swallowed());
        assertEquals(List.of("plan", "patch", "patch", "review"), trace.calls().stream().map(CallRecord::op).toList());
        assertEquals(CallRecord.Result.CRASH, trace.calls().get(1).result());
        assertEquals(0, trace.calls().get(2).sdkRetry(), "the call after the restart is the fresh process's own");
        assertEquals(List.of(Status.OK, Status.OK, Status.OK),
                trace.outcomes().stream().map(Outcome::status).toList());
    }

    @Test
    void aSlowFirstTokenArrivesLateOnTheVirtualClockAndHalvesTheConcurrency() {
        ScenarioResult result = timed(defaults(), "slow-first-token");
        Outcome plan = result.trace().outcomes().get(0);

        assertEquals(List.of(), lines(result));
        assertEquals(3500L, plan.elapsedMs());
        assertEquals(2, plan.concurrency());
        assertEquals(1, plan.attempts());
        assertNull(result.trace().outcomes().get(1).elapsedMs(), "the recorded 510 ms is under the threshold");
    }

    @Test
    void theLoopNamedInTheYamlFailsOnTheSdksHiddenRetriesAndPassesWithMaxRetriesZero() throws Exception {
        // As the plugin's goals do it: the class named in loop:, made by its public no-argument constructor.
        for (String loop : List.of("dev.resilienceharness.clients.anthropic.FixLoop",
                "dev.resilienceharness.clients.anthropic.FixLoop$WithoutSdkRetries")) {
            HarnessConfig config = Rehearsals.project(dir.resolve(loop), YAML.replace(
                    "loop: dev.resilienceharness.clients.anthropic.FixLoop", "loop: " + loop), "cassettes");
            Rehearsal rehearsal = Rehearsal.prepare(config,
                    LoopFactory.forName(config.loop(), getClass().getClassLoader()));
            ScenarioResult result = rehearsal.check(Rehearsals.scenario(config, "quota-without-retry-after"), 2,
                    Rehearsal.RUN_INVARIANTS);
            if (loop.endsWith("FixLoop")) {
                assertEquals(1, of(result, Invariant.BUDGET).size(), lines(result).toString());
                assertTrue(of(result, Invariant.BUDGET).get(0).hint().startsWith("anthropic-java retried 2 times"),
                        lines(result).toString());
            } else {
                assertEquals(List.of(), lines(result));
            }
        }
    }

    @Test
    void callsMadeOutsideEveryOpScopeAreAttributedByTheirCassettesLabel() {
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", run -> {
            FixAgent agent = new FixAgent(HarnessAnthropic.builder(run).maxRetries(0).build());
            List<Outcome> out = new java.util.ArrayList<>();
            for (String op : run.ops()) {
                agent.step(op);
                out.add(Outcome.ok(op, null, 1));
            }
            return out;
        });

        ScenarioResult result = timed(r, "clean");

        assertEquals(List.of(), lines(result));
        assertEquals(List.of("plan", "patch", "review"), result.trace().calls().stream().map(CallRecord::op).toList());
    }

    @Test
    void theClientIsTheSdksOwnWithItsDefaults() {
        List<Integer> maxRetries = new java.util.ArrayList<>();
        Rehearsals probe = Rehearsals.of(dir.resolve("probe"), YAML, "cassettes", run -> {
            var client = HarnessAnthropic.client(run);
            maxRetries.add(client.options().maxRetries());
            assertEquals(com.anthropic.client.AnthropicClientImpl.class, client.getClass());
            return List.of();
        });
        probe.check("quota-stops");
        // One client per run; the determinism check runs the scenario twice.
        assertEquals(List.of(2, 2), maxRetries);
    }

    @Test
    void customizeSetsAnyOtherOptionButCannotTakeTheClientOffTheRun() {
        com.anthropic.core.Sleeper realSleeper = new com.anthropic.core.Sleeper() {
            @Override
            public void sleep(Duration d) {
                throw new AssertionError("the run's sleeper was replaced");
            }

            @Override
            public java.util.concurrent.CompletableFuture<Void> sleepAsync(Duration d) {
                throw new AssertionError("the run's sleeper was replaced");
            }

            @Override
            public void close() {
            }
        };
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", new FixLoop(run -> HarnessAnthropic.builder(run)
                .customize(b -> b.maxRetries(1).sleeper(realSleeper).clock(java.time.Clock.systemUTC()))
                .build()));

        ScenarioResult result = timed(r, "quota-without-retry-after");

        assertEquals(List.of(0, 1), result.trace().calls().subList(0, 2).stream().map(CallRecord::sdkRetry).toList());
        assertEquals("anthropic-java 3.16.0", result.trace().waits().get(0).by());
    }

    @Test
    void aNegativeMaxRetriesIsRefusedWithTheValue() {
        Rehearsals probe = Rehearsals.of(dir, YAML, "cassettes", run -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> HarnessAnthropic.builder(run).maxRetries(-1));
            assertEquals("maxRetries must not be negative, was -1", e.getMessage());
            return List.of();
        });
        probe.check("quota-stops");
    }

    @Test
    void aFirstTokenPastTheReadTimeoutIsATimeoutTheLoopRetries() {
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", new FixLoop(run -> HarnessAnthropic.builder(run)
                .timeout(com.anthropic.core.Timeout.builder().read(Duration.ofSeconds(3)).build()).build()));

        ScenarioResult result = timed(r, "slow-past-the-read-timeout");

        assertEquals(List.of(), lines(result));
        assertEquals(CallRecord.Result.TRANSIENT, result.trace().calls().get(0).result());
        assertEquals(0, result.trace().calls().get(1).sdkRetry(), "the loop retried it, not the SDK");
    }

    @Test
    void aToolCallWhoseInputBreaksItsSchemaReachesTheLoopWhichRepairsOnceAndDegrades() {
        // The cassette's tool_use lacks the required "content": the SDK hands the input over as it came, and the
        // loop's own check against input_schema finds it.
        Rehearsals r = Rehearsals.of(dir, """
                version: 1
                loop: dev.resilienceharness.clients.anthropic.FixLoop
                policy: {max_total_wait: 30s}
                scenarios:
                  - name: broken-tool-call
                    ops: [patch]
                    expect: {status: [degraded], reason: [schema], attempts: [2]}
                """, "cassettes-broken-input", new FixLoop(HarnessAnthropic::client));

        ScenarioResult result = timed(r, "broken-tool-call");

        assertEquals(List.of(), of(result, Invariant.EXPECTATIONS), lines(result).toString());
        assertEquals(List.of(Outcome.degraded("patch", "schema", 2)), result.trace().outcomes());
        assertEquals(2, result.trace().calls().size());
        result.trace().calls().forEach(c -> assertEquals(0, c.sdkRetry(), "a 200 is never the SDK's to retry"));
    }

    @Test
    void aRequestNoCassetteAnswersIsACassetteViolationNamingTheOpNotAnSdkErrorAboutTheModel() {
        // Someone raised max_tokens without recording again.
        List<RuntimeException> thrown = new java.util.ArrayList<>();
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", run -> {
            try (var scope = run.op("plan")) {
                HarnessAnthropic.client(run).messages().create(FixAgent.params("plan").toBuilder().maxTokens(1024)
                        .build());
                return List.of(Outcome.ok("plan", null, 1));
            } catch (RuntimeException e) {
                thrown.add(e);
                throw e;
            }
        });

        ScenarioResult result = timed(r, "unrecorded");

        // The miss comes through the SDK untouched: no NotFoundException, no "model not found".
        assertEquals(dev.resilienceharness.cassette.CassetteMiss.class, thrown.get(0).getClass());
        assertEquals(RunTrace.Kind.CASSETTE, result.trace().failure().kind());
        List<Violation> cassettes = of(result, Invariant.CASSETTES);
        assertEquals(1, cassettes.size(), lines(result).toString());
        String message = cassettes.get(0).message();
        assertTrue(message.startsWith("no cassette for op 'plan': looked for "), message);
        assertTrue(message.contains("max_tokens"), message);
        assertTrue(message.contains("run mvn resilience:record (loop: dev.resilienceharness.clients.anthropic.FixLoop)"),
                message);
        assertFalse(message.toLowerCase(java.util.Locale.ROOT).contains("not found"), message);
    }

    @Test
    void anOpWithNoRecordingIsASetupErrorSayingHowToRecordItThroughTheLoop() {
        var config = Rehearsals.project(dir, YAML.replace("ops: [plan]\n", "ops: [deploy]\n"), "cassettes");

        SetupException e = assertThrows(SetupException.class,
                () -> Rehearsal.prepare(config, () -> new FixLoop(HarnessAnthropic::client)));

        assertTrue(e.getMessage().contains("no cassette recorded for op 'deploy'. This op's calls come from your"
                + " loop's SDK: run mvn resilience:record"), e.getMessage());
    }

    @Test
    void recordMissingThroughTheSdkWritesLabelledRedactedCassettesThatThenReplayOffline() throws Exception {
        HarnessConfig config = Rehearsals.project(dir, YAML, null);
        LoopRecorder recording = LoopRecorder.prepare(config, () -> new FixLoop(HarnessAnthropic::client));
        try (MessagesStub provider = new MessagesStub()) {
            recording.recordMissing(Rehearsals.scenario(config, "quota-stops"),
                    LiveHttp.to(provider.baseUrl(), MessagesStub.KEY, Duration.ofSeconds(10)),
                    RecordingRedaction.forConfig(config));
            assertEquals(3, provider.requests().size(), "one request per op, faults left out");
        }

        List<Path> files;
        try (var list = Files.list(config.cassettes())) {
            files = list.sorted().toList();
        }
        assertEquals(3, files.size());
        List<String> labels = new java.util.ArrayList<>();
        for (Path file : files) {
            String text = Files.readString(file);
            JsonNode cassette = Json.readTree(text);
            labels.add(cassette.get("op").asString());
            assertEquals(FixAgent.MODEL, cassette.get("request").get("model").asString());
            assertFalse(cassette.get("response").has("id"), "volatile response.id is stripped");
            assertFalse(text.contains(MessagesStub.KEY), "the key never reaches a cassette");
            assertFalse(text.contains(HarnessAnthropic.REPLAY_KEY), "nor the placeholder");
        }
        assertEquals(List.of("patch", "plan", "review"), labels.stream().sorted().toList());

        // Offline now: every scenario is answered from what was recorded, with no provider running.
        Rehearsal replay = Rehearsal.prepare(config, () -> new FixLoop(run -> HarnessAnthropic.builder(run)
                .maxRetries(0).build()));
        ScenarioResult result = replay.check(Rehearsals.scenario(config, "quota-honoured-once"), 2,
                Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), lines(result));
        assertEquals("final class EmailValidator {}",
                result.trace().outcomes().get(1).value().get("content").asString());
    }

    @Test
    void anInjectedBadToolCallIsA200TheSdkHandsOverAndTheLoopJudgesByItsOwnCheck() {
        // What the fault does to a tool_use block is the core's to decide (the Messages API carries input as an
        // object); whatever arrives, the SDK must hand it to the loop without failing, and the loop's own check of
        // input against input_schema decides whether it repairs.
        List<JsonNode> inputs = new java.util.ArrayList<>();
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", new FixLoop(HarnessAnthropic::client));
        // The same scenario once more, keeping the patch step's input as the SDK delivered it.
        Rehearsals probe = Rehearsals.of(dir.resolve("probe"), YAML, "cassettes", run -> {
            var client = HarnessAnthropic.client(run);
            try (var scope = run.op("plan")) {
                new FixAgent(client).step("plan");
            }
            try (var scope = run.op("patch")) {
                var block = new FixAgent(client).step("patch").content().get(0).toolUse().orElseThrow();
                inputs.add(Json.readTree(jsonOf(block._input())));
            }
            return List.of();
        });
        probe.check("injected-bad-tool-call");

        ScenarioResult result = timed(r, "injected-bad-tool-call");
        CallRecord broken = result.trace().calls().get(1);

        assertEquals("patch", broken.op());
        assertEquals(CallRecord.Result.SCHEMA, broken.result());
        assertEquals(0, broken.sdkRetry(), "a 200 is never the SDK's to retry");
        Outcome patch = result.trace().outcomes().get(1);
        assertEquals(Status.OK, patch.status());
        assertEquals(WriteFileInput.valid(inputs.get(0)) ? 1 : 2, patch.attempts(),
                "the loop repairs exactly when its check fails: " + inputs.get(0));
        assertTrue(WriteFileInput.valid(patch.value()), patch.value().toString());
    }

    private static String jsonOf(com.anthropic.core.JsonValue value) {
        try {
            return com.anthropic.core.ObjectMappers.jsonMapper().writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
