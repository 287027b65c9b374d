package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.errors.SseException;
import dev.resilienceharness.clients.tck.CarefulStreaming;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.StreamErrorFault;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.StreamTrace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.prompt.Prompt;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * An error inside a successful stream through Spring AI's {@code OpenAiChatModel.stream(Prompt)} on a default model
 * (the SDK's retries on): the provider answers 200, streams some text, then a chunk holding {@code error}. The error
 * is the Flux's error signal; neither Spring AI nor openai-java retries it. A careful loop retries only before the
 * first text; a loop that retries after it emits the text twice and fails under partial_work.
 */
class InStreamErrorTest {

    /** The text of the role chunk and the two pieces before the error, as the recorded plan splits. */
    private static final String BEFORE_ERROR = "1. Reproduce the failure. 2. Mak";

    private static final String PLAN = "1. Reproduce the failure. 2. Make Range.contains include its upper bound."
            + " 3. Add a test for the bound.";

    @TempDir
    Path dir;

    /**
     * A loop that emits each streamed piece as it comes. Careful, it retries a broken stream only while no text has
     * arrived and otherwise keeps what it emitted, degraded; careless, it retries whenever the stream breaks.
     */
    static final class EmittingLoop implements AgentLoop {
        private final boolean careful;
        private final Function<LoopRun, ChatModel> models;
        private final String prompt;
        final List<Throwable> broken = new ArrayList<>();
        /** Every error signal the Flux sent, in order. */
        final List<Throwable> signals = new ArrayList<>();

        EmittingLoop(boolean careful) {
            this(careful, HarnessSpringAi::chatModel, TeamLoop.PROMPTS.get("plan"));
        }

        /** The loop on the chat model {@code models} makes, asking {@code prompt} in op {@code plan}. */
        EmittingLoop(boolean careful, Function<LoopRun, ChatModel> models, String prompt) {
            this.careful = careful;
            this.models = models;
            this.prompt = prompt;
        }

        @Override
        public List<Outcome> run(LoopRun run) {
            ChatModel model = models.apply(run);
            return List.of(CarefulStreaming.<RuntimeException>of(careful, e -> "error",
                    t -> JsonNodeFactory.instance.objectNode().put("text", t)).op(run, "plan", emitter -> {
                        try {
                            model.stream(new Prompt(prompt)).doOnNext(r -> {
                                emitter.event();
                                if (r.getResult() != null && r.getResult().getOutput().getText() != null) {
                                    emitter.text(r.getResult().getOutput().getText());
                                }
                            }).doOnError(signals::add).blockLast();
                            return null;
                        } catch (RuntimeException e) {
                            return e;
                        }
                    }, broken::add));
        }
    }

    private ScenarioResult check(EmittingLoop loop, int afterEvents) throws Exception {
        Workspace ws = Workspace.in(dir);
        List<Fault> faults = List.of(new StreamErrorFault(afterEvents), NoFault.INSTANCE);
        return ws.rehearsal(() -> loop).check(ws.scenario("quota-once").withFaults(faults), 1,
                Rehearsal.RUN_INVARIANTS);
    }

    private static String lines(ScenarioResult result) {
        StringBuilder sb = new StringBuilder();
        result.violations().forEach(v -> sb.append(v.line()).append('\n'));
        return sb.toString();
    }

    @Test
    void anErrorChunkAfterTextIsTheFluxsErrorSignalOnOneHttpAttemptAndACarefulLoopKeepsTheText() throws Exception {
        EmittingLoop loop = new EmittingLoop(true);
        ScenarioResult result = check(loop, 3);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one HTTP attempt: the 200 was past openai-java's retries and Spring AI's");
        assertEquals(0, result.trace().calls().get(0).sdkRetry());
        // openai-java's SseHandler threw on the chunk holding error; the Flux's error signal is that exception,
        // unwrapped, and blockLast throws it.
        SseException sse = assertInstanceOf(SseException.class, loop.signals.get(0));
        assertSame(sse, loop.broken.get(0));
        assertTrue(sse.getMessage().contains("stream_error"), sse.getMessage());
        StreamTrace stream = result.trace().streams().get(0);
        assertEquals("error_event", stream.end());
        assertEquals(BEFORE_ERROR, stream.partialText());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals(BEFORE_ERROR, plan.value().get("text").asString(), "the emitted text, kept");
        assertEquals(Outcome.KEPT, plan.partialText());
    }

    @Test
    void aLoopThatRetriesAfterTheErrorChunksTextFailsUnderPartialWork() throws Exception {
        EmittingLoop loop = new EmittingLoop(false);
        ScenarioResult result = check(loop, 3);
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry, never the SDK's");
        assertEquals(List.of(0, 0), result.trace().calls().stream().map(CallRecord::sdkRetry).toList());
        assertEquals(BEFORE_ERROR + PLAN, result.trace().outcomes().get(0).value().get("text").asString(),
                "the text emitted twice");
        List<Violation> partial = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.PARTIAL_WORK).toList();
        assertEquals(1, partial.size(), lines(result));
        assertEquals("its outcome repeats text that had already arrived before the stream was ended by an error event"
                + " after 4 events: \"" + BEFORE_ERROR + "\" appears 2 times in it", partial.get(0).message());
    }

    @Test
    void anErrorChunkBeforeAnyTextIsRetriedByTheCarefulLoopAndTheTextArrivesOnce() throws Exception {
        EmittingLoop loop = new EmittingLoop(true);
        ScenarioResult result = check(loop, 1);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "only the role chunk had arrived: the loop retried");
        assertEquals(PLAN, result.trace().outcomes().get(0).value().get("text").asString());
    }
}
