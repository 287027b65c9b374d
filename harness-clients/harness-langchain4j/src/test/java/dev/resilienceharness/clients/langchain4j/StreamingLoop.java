package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** A team's loop on langchain4j's streaming model: one streamed {@code chat} per op, the pieces it heard kept. */
final class StreamingLoop implements AgentLoop {

    static final Map<String, String> PROMPTS = Map.of("draft", "draft the fix", "fix", "fix the bug");

    private final Function<LoopRun, StreamingChatModel> models;
    /** Every partial response the handler was given, in order. */
    final List<String> partials = new ArrayList<>();
    final List<Throwable> errors = new ArrayList<>();

    /** Whether it waits on the handler without a bound, as {@code answer.join()} does, before it looks. */
    private final boolean waitsWithoutBound;

    StreamingLoop(Function<LoopRun, StreamingChatModel> models) {
        this(models, false);
    }

    StreamingLoop(Function<LoopRun, StreamingChatModel> models, boolean waitsWithoutBound) {
        this.models = models;
        this.waitsWithoutBound = waitsWithoutBound;
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        StreamingChatModel model = models.apply(run);
        List<Outcome> outcomes = new ArrayList<>(run.journal().completed());
        for (String op : run.ops()) {
            if (outcomes.stream().anyMatch(o -> o.op().equals(op))) {
                continue;
            }
            ChatRequest.Builder request = ChatRequest.builder().messages(UserMessage.from(PROMPTS.get(op)));
            if (op.equals("fix")) {
                request.toolSpecifications(TeamLoop.APPLY_PATCH);
            }
            StreamedAnswer handler = new StreamedAnswer(partials::add);
            try (var scope = run.op(op)) {
                model.chat(request.build(), handler);
            }
            CompletableFuture<ChatResponse> answer = handler.answer;
            if (waitsWithoutBound) {
                // What a loop written against a live provider does: wait until the handler is called.
                answer.handle((r, e) -> r).join();
            }
            // The adapter streams on the calling thread: the handler has been called by now.
            Outcome outcome;
            if (!answer.isDone()) {
                throw new IllegalStateException("the streamed answer for " + op + " did not arrive");
            }
            if (answer.isCompletedExceptionally()) {
                Throwable error = answer.handle((r, e) -> e).join();
                errors.add(error);
                outcome = error instanceof RateLimitException ? Outcome.stopped(op, null, 1)
                        : Outcome.degraded(op, "error", 1);
            } else {
                ChatResponse response = answer.join();
                ObjectNode value = JsonNodeFactory.instance.objectNode();
                if (response.aiMessage().text() != null) {
                    value.put("text", response.aiMessage().text());
                }
                for (ToolExecutionRequest call : response.aiMessage().toolExecutionRequests()) {
                    value.put("tool", call.name()).put("arguments", call.arguments());
                }
                outcome = Outcome.ok(op, value, 1);
            }
            run.journal().record(outcome);
            outcomes.add(outcome);
            if (outcome.status() == Status.STOPPED) {
                break;
            }
        }
        return outcomes;
    }
}
