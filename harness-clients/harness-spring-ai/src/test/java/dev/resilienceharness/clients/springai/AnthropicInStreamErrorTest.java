package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.client.AnthropicClient;
import com.anthropic.errors.SseException;
import dev.resilienceharness.clients.anthropic.HarnessAnthropic;
import dev.resilienceharness.clients.tck.RehearsalProject;
import dev.resilienceharness.clients.tck.ScriptedProvider;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.LoopRun;
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
import org.springframework.ai.anthropic.AnthropicChatModel;
import org.springframework.ai.anthropic.AnthropicChatOptions;
import org.springframework.ai.chat.model.ChatModel;

/**
 * Spring AI's {@code AnthropicChatModel.stream(Prompt)} on anthropic-java's adapter client (its own retries on): a
 * Messages stream recorded through the loop from a provider on 127.0.0.1, then replayed with Anthropic's in-stream
 * {@code overloaded_error} and {@code api_error}, which arrive after the 200.
 */
class AnthropicInStreamErrorTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.springai.TeamLoop
            policy: {max_attempts: 3, base_delay: 10ms, max_total_wait: 30s}
            scenarios:
              - {name: calm, ops: [plan], faults: []}
              - name: overloaded-after-text
                ops: [plan]
                faults: [{stream_error: {after_events: 4, error: overloaded_error}}, none]
              - name: api-error-before-text
                ops: [plan]
                faults: [{stream_error: {after_events: 2, error: api_error}}, none]
            """;

    private static final String TEXT = "Reproduce it, fix the bound, then add a test for it.";

    @TempDir
    Path dir;

    private RehearsalProject project;

    /** Spring AI's Anthropic model on the run: anthropic-java's adapter client, and its asynchronous twin. */
    static ChatModel anthropic(LoopRun run) {
        AnthropicClient client = HarnessAnthropic.client(run);
        return AnthropicChatModel.builder().anthropicClient(client).anthropicClientAsync(client.async())
                .options(AnthropicChatOptions.builder().model("claude-sonnet-4-5").maxTokens(1024).build())
                .build();
    }

    private static LoopFactory loops(boolean careful, AtomicReference<InStreamErrorTest.EmittingLoop> last) {
        return () -> {
            InStreamErrorTest.EmittingLoop loop = new InStreamErrorTest.EmittingLoop(careful,
                    AnthropicInStreamErrorTest::anthropic, "Plan the fix.");
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

    private ScenarioResult check(String name, boolean careful, AtomicReference<InStreamErrorTest.EmittingLoop> last)
            throws Exception {
        return project.replay(name, loops(careful, last), 2, Rehearsal.RUN_INVARIANTS);
    }

    private static String lines(ScenarioResult result) {
        StringBuilder sb = new StringBuilder();
        result.violations().forEach(v -> sb.append(v.line()).append('\n'));
        return sb.toString();
    }

    @Test
    void theRecordedStreamReplaysToTheFlux() throws Exception {
        ScenarioResult calm = check("calm", true, new AtomicReference<>());
        assertEquals(List.of(), calm.violations(), lines(calm));
        assertEquals(TEXT, calm.trace().outcomes().get(0).value().get("text").asString());
        assertEquals("done", calm.trace().streams().get(0).end());
    }

    @Test
    void anOverloadedErrorAfterTextIsTheFluxsErrorSignalOnOneHttpAttemptAndACarefulLoopKeepsTheText()
            throws Exception {
        AtomicReference<InStreamErrorTest.EmittingLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("overloaded-after-text", true, loop);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one HTTP attempt: the 200 was past anthropic-java's retries and Spring AI's");
        assertEquals(0, result.trace().calls().get(0).sdkRetry());
        // anthropic-java's parser threw on the event: error; the Flux's error signal is that exception.
        SseException sse = assertInstanceOf(SseException.class, loop.get().signals.get(0));
        assertSame(sse, loop.get().broken.get(0));
        assertTrue(sse.getMessage().contains("overloaded_error"), sse.getMessage());
        StreamTrace stream = result.trace().streams().get(0);
        assertEquals("error_event", stream.end());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals(stream.partialText(), plan.value().get("text").asString(), "the emitted text, kept");
        assertTrue(!stream.partialText().isEmpty() && TEXT.startsWith(stream.partialText()), stream.partialText());
        assertEquals(Outcome.KEPT, plan.partialText());
    }

    @Test
    void aLoopThatRetriesAfterAnOverloadedErrorsTextFailsUnderPartialWork() throws Exception {
        AtomicReference<InStreamErrorTest.EmittingLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("overloaded-after-text", false, loop);
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry, never the SDK's");
        String partial = result.trace().streams().get(0).partialText();
        assertEquals(partial + TEXT, result.trace().outcomes().get(0).value().get("text").asString(),
                "the text emitted twice");
        List<Violation> repeated = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.PARTIAL_WORK).toList();
        assertEquals(1, repeated.size(), lines(result));
        assertEquals("its outcome repeats text that had already arrived before the stream was ended by an error event"
                + " after 5 events: \"" + partial + "\" appears 2 times in it", repeated.get(0).message());
    }

    @Test
    void anApiErrorBeforeAnyTextIsRetriedByTheCarefulLoop() throws Exception {
        AtomicReference<InStreamErrorTest.EmittingLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("api-error-before-text", true, loop);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "no text had arrived: the loop retried");
        assertTrue(loop.get().broken.get(0).getMessage().contains("api_error"), loop.get().broken.toString());
        assertEquals(TEXT, result.trace().outcomes().get(0).value().get("text").asString());
    }
}
