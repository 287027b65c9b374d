package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.resilienceharness.clients.tck.CarefulStreaming;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A team's loop on langchain4j's streaming model that emits each partial response as the handler hears it, for op
 * {@code draft}. A stream fails when the handler hears {@code onError}, or {@code onCompleteResponse} with no finish
 * reason (the provider never said the answer was done). Careful, it retries a failed stream only while no text had
 * arrived and otherwise keeps what it emitted, degraded; careless, it retries whenever the stream fails and emits the
 * retry's text after what it already emitted.
 */
final class EmittingStreamingLoop implements AgentLoop {

    private final Function<LoopRun, StreamingChatModel> models;
    private final boolean careful;
    /** Every error the handler was given, in order. */
    final List<Throwable> errors = new ArrayList<>();
    /** Every response the handler completed with no finish reason, in order. */
    final List<ChatResponse> unfinished = new ArrayList<>();

    EmittingStreamingLoop(Function<LoopRun, StreamingChatModel> models, boolean careful) {
        this.models = models;
        this.careful = careful;
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        StreamingChatModel model = models.apply(run);
        return List.of(CarefulStreaming.<Object>of(careful, b -> "error",
                t -> JsonNodeFactory.instance.objectNode().put("text", t)).op(run, "draft", emitter -> {
                    StreamedAnswer handler = new StreamedAnswer(partial -> {
                        emitter.event();
                        emitter.text(partial);
                    });
                    model.chat(ChatRequest.builder().messages(UserMessage.from(StreamingLoop.PROMPTS.get("draft")))
                            .build(), handler);
                    CompletableFuture<ChatResponse> answer = handler.answer;
                    // The adapter streams on the calling thread: the handler has been called by now.
                    if (!answer.isDone()) {
                        throw new IllegalStateException("the streamed answer for draft did not arrive");
                    }
                    if (answer.isCompletedExceptionally()) {
                        return answer.handle((r, e) -> e).join();
                    }
                    return answer.join().finishReason() == null ? answer.join() : null;
                }, broken -> {
                    if (broken instanceof Throwable error) {
                        errors.add(error);
                    } else {
                        unfinished.add((ChatResponse) broken);
                    }
                }));
    }
}
