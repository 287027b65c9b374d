package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.exception.RateLimitException;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** langchain4j's {@code OpenAiStreamingChatModel} rehearsed through the adapter, answers streamed from cassettes. */
class StreamingTest {

    private static final String SCENARIOS = """
              - name: calm
                ops: [draft, fix]
                expect: {status: [ok, ok]}
              - name: quota
                ops: [draft, fix]
                faults: [quota]
                expect: {status: [stopped]}
              - name: server-error
                ops: [draft]
                faults: [{server_error: {status: 503}}]
                expect: {status: [degraded]}
              - name: timeout
                ops: [draft]
                faults: [timeout]
                expect: {status: [degraded]}
              - name: crash
                ops: [draft, fix]
                faults: [none, crash]
                expect: {status: [ok, ok]}
              - name: cut
                ops: [draft]
                faults: [{stream_cut: {after_events: 2}}]
              - name: error-after-text
                ops: [draft]
                faults: [{stream_error: {after_events: 2}}, none]
              - name: error-before-text
                ops: [draft]
                faults: [{stream_error: {after_events: 1}}, none]
              - name: slow-stream
                ops: [draft]
                faults: [{slow_first_token: {elapsed_ms: 3000}}]
            """;

    @TempDir
    Path dir;

    private ScenarioResult run(String scenario, AtomicReference<StreamingLoop> last) throws Exception {
        Project project = new Project(dir, "{max_total_wait: 30s}", SCENARIOS);
        return project.check(project.rehearsal(() -> {
            StreamingLoop loop = new StreamingLoop(run -> HarnessLangChain4j.streamingChatModel(run, "gpt-4o-mini"));
            last.set(loop);
            return loop;
        }), scenario);
    }

    @Test
    void aRecordedAnswerStreamsToTheHandlerBeforeChatReturns() throws Exception {
        AtomicReference<StreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = run("calm", loop);

        assertEquals(List.of(), Project.lines(result));
        // Streamed as a provider splits it (the pieces serve sends), so that a stream fault can strike between them.
        assertEquals(List.of("1. reproduce 2. ", "fix 3. test"), loop.get().partials);
        var outcomes = result.trace().outcomes();
        assertEquals("1. reproduce 2. fix 3. test", outcomes.get(0).value().get("text").asString());
        assertEquals("apply_patch", outcomes.get(1).value().get("tool").asString());
        assertEquals("{\"file\":\"App.java\",\"diff\":\"-a\\n+b\"}",
                outcomes.get(1).value().get("arguments").asString());
        assertEquals(List.of("langchain4j-open-ai 1.19.0", "langchain4j-open-ai 1.19.0"),
                result.trace().calls().stream().map(CallRecord::sdk).toList());
    }

    @Test
    void aQuotaReachesTheHandlerAtOnceForTheStreamingModelNeverRetries() throws Exception {
        AtomicReference<StreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = run("quota", loop);

        assertEquals(List.of(), Project.lines(result));
        assertInstanceOf(RateLimitException.class, loop.get().errors.get(0));
        assertEquals(List.of(Status.STOPPED), result.trace().outcomes().stream().map(o -> o.status()).toList());
        assertEquals(1, result.trace().calls().size());
        assertEquals(List.of(), result.trace().realSleeps());
    }

    @Test
    void a503AndATimeoutReachTheHandlerAtOnceAsLangchain4jsExceptions() throws Exception {
        AtomicReference<StreamingLoop> loop = new AtomicReference<>();
        ScenarioResult server = run("server-error", loop);
        assertEquals(List.of(), Project.lines(server));
        assertInstanceOf(dev.langchain4j.exception.InternalServerException.class, loop.get().errors.get(0));
        assertEquals(1, server.trace().calls().size());

        ScenarioResult timeout = run("timeout", loop);
        assertEquals(List.of(), Project.lines(timeout));
        assertInstanceOf(dev.langchain4j.exception.TimeoutException.class, loop.get().errors.get(0));
        assertEquals(1, timeout.trace().calls().size());
        assertEquals(List.of(), timeout.trace().realSleeps());
    }

    @Test
    void aCrashWhileStreamingRestartsTheLoopOnItsJournal() throws Exception {
        AtomicReference<StreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = run("crash", loop);

        assertEquals(List.of(), Project.lines(result));
        assertEquals(1, result.trace().restarts().size());
        assertEquals(List.of("draft", "fix", "fix"), result.trace().calls().stream().map(CallRecord::op).toList());
    }

    @Test
    void aCutStreamReachesTheHandlerEventByEventAndThenAsAnError() throws Exception {
        AtomicReference<StreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = run("cut", loop);
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "the cut makes the call transient");
        dev.resilienceharness.trace.StreamTrace cut = result.trace().streams().get(0);
        assertEquals("cut", cut.end());
        assertEquals(2, cut.arrived());
        assertEquals(List.of("1. reproduce 2. "), loop.get().partials, "the text before the cut reached the handler");
        assertEquals(1, loop.get().errors.size());
        assertEquals(Status.DEGRADED, result.trace().outcomes().get(0).status());
    }

    private ScenarioResult emitting(String scenario, EmittingStreamingLoop loop) throws Exception {
        Project project = new Project(dir, "{max_attempts: 3, base_delay: 10ms, max_total_wait: 30s}", SCENARIOS);
        return project.check(project.rehearsal(() -> loop), scenario);
    }

    private static EmittingStreamingLoop emittingLoop(boolean careful) {
        return new EmittingStreamingLoop(run -> HarnessLangChain4j.streamingChatModel(run, "gpt-4o-mini"), careful);
    }

    @Test
    void anErrorChunkAfterTextCompletesTheHandlerWithNoFinishReasonOnOneHttpAttemptAndACarefulLoopKeepsTheText()
            throws Exception {
        EmittingStreamingLoop loop = emittingLoop(true);
        ScenarioResult result = emitting("error-after-text", loop);
        assertEquals(List.of(), Project.lines(result));
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one HTTP attempt: the streaming model never retries, and the 200 was past its HTTP client");
        assertEquals(0, result.trace().calls().get(0).sdkRetry());
        // langchain4j 1.19.0 reads the chunk holding error as a chunk with no choices: the handler hears no error, and
        // onCompleteResponse gives the text so far with no finish reason, the one sign that the answer was cut short.
        assertEquals(List.of(), loop.errors, "onError is never called");
        assertEquals("1. reproduce 2. ", loop.unfinished.get(0).aiMessage().text());
        assertEquals(null, loop.unfinished.get(0).finishReason());
        assertEquals("error_event", result.trace().streams().get(0).end());
        Outcome draft = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, draft.status());
        assertEquals("1. reproduce 2. ", draft.value().get("text").asString(), "the emitted text, kept");
        assertEquals(Outcome.KEPT, draft.partialText());
    }

    @Test
    void aLoopThatRetriesAfterTheErrorChunksTextFailsUnderPartialWork() throws Exception {
        EmittingStreamingLoop loop = emittingLoop(false);
        ScenarioResult result = emitting("error-after-text", loop);
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry");
        assertEquals("1. reproduce 2. 1. reproduce 2. fix 3. test",
                result.trace().outcomes().get(0).value().get("text").asString(), "the text emitted twice");
        List<String> lines = Project.lines(result);
        assertEquals(1, lines.size(), String.valueOf(lines));
        assertTrue(lines.get(0).startsWith("error-after-text [partial_work] op 'draft': its outcome repeats text that"
                + " had already arrived before the stream was ended by an error event after 3 events: \"1. reproduce"
                + " 2. \" appears 2 times in it"), lines.get(0));
    }

    @Test
    void anErrorChunkBeforeAnyTextIsRetriedByTheCarefulLoop() throws Exception {
        EmittingStreamingLoop loop = emittingLoop(true);
        ScenarioResult result = emitting("error-before-text", loop);
        assertEquals(List.of(), Project.lines(result));
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList());
        assertEquals("1. reproduce 2. fix 3. test", result.trace().outcomes().get(0).value().get("text").asString());
    }

    @Test
    void aLateFirstEventIsOnTheVirtualClock() throws Exception {
        AtomicReference<StreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = run("slow-stream", loop);
        assertEquals(3_000_000_000L, result.trace().streams().get(0).eventNanos().get(0));
        assertEquals(List.of("1. reproduce 2. fix 3. test"), List.of(String.join("", loop.get().partials)));
    }
}
