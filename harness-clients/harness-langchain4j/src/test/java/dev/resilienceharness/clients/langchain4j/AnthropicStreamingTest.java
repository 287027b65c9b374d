package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import dev.langchain4j.model.anthropic.internal.api.AnthropicStreamingException;
import dev.resilienceharness.clients.tck.RehearsalProject;
import dev.resilienceharness.clients.tck.ScriptedProvider;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.StreamTrace;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * langchain4j-anthropic's {@code AnthropicStreamingChatModel} on {@link HarnessLangChain4j#httpClientBuilder}: a
 * Messages stream recorded through the loop from a provider on 127.0.0.1, then replayed with Anthropic's in-stream
 * {@code overloaded_error} and {@code api_error}, which arrive after the 200.
 */
class AnthropicStreamingTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.langchain4j.EmittingStreamingLoop
            policy: {max_attempts: 3, base_delay: 10ms, max_total_wait: 30s}
            scenarios:
              - {name: calm, ops: [draft], faults: []}
              - name: overloaded-after-text
                ops: [draft]
                faults: [{stream_error: {after_events: 4, error: overloaded_error}}, none]
              - name: api-error-before-text
                ops: [draft]
                faults: [{stream_error: {after_events: 2, error: api_error}}, none]
            """;

    private static final String TEXT = "Reproduce it, fix the bound, then add a test for it.";

    @TempDir
    Path dir;

    private RehearsalProject project;

    private static LoopFactory loops(boolean careful, AtomicReference<EmittingStreamingLoop> last) {
        return () -> {
            EmittingStreamingLoop loop = new EmittingStreamingLoop(run -> AnthropicStreamingChatModel.builder()
                    .httpClientBuilder(HarnessLangChain4j.httpClientBuilder(run))
                    .baseUrl(HarnessLangChain4j.BASE_URL).apiKey(HarnessLangChain4j.API_KEY)
                    .modelName("claude-sonnet-4-5").maxTokens(1024).build(), careful);
            last.set(loop);
            return loop;
        };
    }

    @BeforeEach
    void recordTheStreamFromALoopbackProvider() throws Exception {
        project = RehearsalProject.write(dir, YAML);
        try (ScriptedProvider provider = ScriptedProvider.streamingMessage(TEXT)) {
            assertEquals(1, project.record("calm", loops(true, new AtomicReference<>()), provider.live("sk-ant-stub"))
                    .recorded());
        }
    }

    private ScenarioResult check(String name, boolean careful, AtomicReference<EmittingStreamingLoop> last)
            throws Exception {
        return project.replay(name, loops(careful, last), 2, Rehearsal.RUN_INVARIANTS);
    }

    @Test
    void theRecordedStreamReplaysToTheHandler() throws Exception {
        AtomicReference<EmittingStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult calm = check("calm", true, loop);
        assertEquals(List.of(), Project.lines(calm));
        assertEquals(TEXT, calm.trace().outcomes().get(0).value().get("text").asString());
        assertEquals("done", calm.trace().streams().get(0).end());
    }

    @Test
    void anOverloadedErrorAfterTextReachesOnErrorOnOneHttpAttemptAndACarefulLoopKeepsTheText() throws Exception {
        AtomicReference<EmittingStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("overloaded-after-text", true, loop);
        assertEquals(List.of(), Project.lines(result));
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one HTTP attempt: the 200 was past langchain4j's HTTP client, and nothing retried it");
        assertEquals(0, result.trace().calls().get(0).sdkRetry());
        // DefaultAnthropicClient reads the event: error and calls the handler's onError with it.
        AnthropicStreamingException e = assertInstanceOf(AnthropicStreamingException.class,
                loop.get().errors.get(0));
        assertEquals("overloaded_error", e.type());
        assertEquals("injected stream_error fault: the provider failed mid-stream", e.getMessage());
        StreamTrace stream = result.trace().streams().get(0);
        assertEquals("error_event", stream.end());
        assertEquals(5, stream.arrived(), "message_start, content_block_start, two text deltas, then the error");
        Outcome draft = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, draft.status());
        assertEquals(stream.partialText(), draft.value().get("text").asString(), "the emitted text, kept");
        assertTrue(!stream.partialText().isEmpty() && TEXT.startsWith(stream.partialText()), stream.partialText());
        assertEquals(Outcome.KEPT, draft.partialText());
    }

    @Test
    void aLoopThatRetriesAfterAnOverloadedErrorsTextFailsUnderPartialWork() throws Exception {
        AtomicReference<EmittingStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("overloaded-after-text", false, loop);
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry");
        String partial = result.trace().streams().get(0).partialText();
        assertEquals(partial + TEXT, result.trace().outcomes().get(0).value().get("text").asString(),
                "the text emitted twice");
        List<String> lines = Project.lines(result).stream().filter(l -> l.contains("[partial_work]")).toList();
        assertEquals(1, lines.size(), String.valueOf(Project.lines(result)));
        assertTrue(lines.get(0).startsWith("overloaded-after-text [partial_work] op 'draft': its outcome repeats text"
                + " that had already arrived before the stream was ended by an error event after 5 events: \""
                + partial + "\" appears 2 times in it"), lines.get(0));
    }

    @Test
    void anApiErrorBeforeAnyTextIsRetriedByTheCarefulLoop() throws Exception {
        AtomicReference<EmittingStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("api-error-before-text", true, loop);
        assertEquals(List.of(), Project.lines(result));
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "no text had arrived: the loop retried");
        assertEquals("api_error", assertInstanceOf(AnthropicStreamingException.class, loop.get().errors.get(0))
                .type(), "the error's type, apart from its message");
        assertEquals(TEXT, result.trace().outcomes().get(0).value().get("text").asString());
    }
}
