package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

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
        StringBuilder emitted = new StringBuilder();
        try (var scope = run.op("draft")) {
            for (int attempt = 1; ; attempt++) {
                int before = emitted.length();
                int[] pieces = {0};
                CompletableFuture<ChatResponse> answer = new CompletableFuture<>();
                model.chat(ChatRequest.builder().messages(UserMessage.from(StreamingLoop.PROMPTS.get("draft")))
                        .build(), new StreamingChatResponseHandler() {
                            @Override
                            public void onPartialResponse(String partial) {
                                pieces[0]++;
                                emitted.append(partial);
                            }

                            @Override
                            public void onCompleteResponse(ChatResponse response) {
                                answer.complete(response);
                            }

                            @Override
                            public void onError(Throwable error) {
                                answer.completeExceptionally(error);
                            }
                        });
                // The adapter streams on the calling thread: the handler has been called by now.
                if (!answer.isDone()) {
                    throw new IllegalStateException("the streamed answer for draft did not arrive");
                }
                if (answer.isCompletedExceptionally()) {
                    errors.add(answer.handle((r, e) -> e).join());
                } else if (answer.join().finishReason() == null) {
                    unfinished.add(answer.join());
                } else {
                    return List.of(Outcome.ok("draft", text(emitted), attempt));
                }
                if (careful && emitted.length() > before) {
                    // Emitted text cannot be taken back: a retry would emit it again.
                    return List.of(new Outcome("draft", Status.DEGRADED, text(emitted), "error", null, attempt, null,
                            null).streamed(pieces[0], Outcome.KEPT));
                }
                if (attempt >= run.policy().maxAttempts()) {
                    return List.of(Outcome.degraded("draft", "error", attempt));
                }
                run.sleeper().sleep(run.policy().backoff(attempt));
            }
        }
    }

    private static ObjectNode text(StringBuilder emitted) {
        return JsonNodeFactory.instance.objectNode().put("text", emitted.toString());
    }
}
