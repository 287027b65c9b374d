package it.agent;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIException;
import com.openai.models.ChatModel;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import dev.resilienceharness.clients.openai.HarnessOpenAi;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.StringNode;

/**
 * A team's loop on the Responses API: each op's summary streamed with {@code responses().createStreaming} and shown as
 * it comes. A stream that breaks is retried, but the text it brought is kept and the retry's appended to it: the
 * salvage bug the check's partial_work finds.
 */
public class SummaryLoop implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        OpenAIClient client = HarnessOpenAi.builder(run).maxRetries(0).build();
        List<Outcome> outcomes = new ArrayList<>();
        for (String op : run.ops()) {
            try (var scope = run.op(op)) {
                outcomes.add(summary(run, client, op));
            }
        }
        return outcomes;
    }

    private static Outcome summary(LoopRun run, OpenAIClient client, String op) {
        ResponseCreateParams params = ResponseCreateParams.builder().model(ChatModel.GPT_4_1_MINI)
                .input("Summarize the " + op + " step.").build();
        StringBuilder shown = new StringBuilder();
        int brokenAfter = -1;
        for (int attempt = 1; ; attempt++) {
            int events = 0;
            try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(params)) {
                for (ResponseStreamEvent event : (Iterable<ResponseStreamEvent>) stream.stream()::iterator) {
                    events++;
                    if (event.isOutputTextDelta()) {
                        shown.append(event.asOutputTextDelta().delta());
                    } else if (event.isError()) {
                        throw new IllegalStateException(event.asError().message());
                    }
                }
                Outcome ok = Outcome.ok(op, StringNode.valueOf(shown.toString()), attempt);
                return brokenAfter < 0 ? ok : ok.streamed(brokenAfter, Outcome.KEPT);
            } catch (OpenAIException | UncheckedIOException | IllegalStateException e) {
                brokenAfter = events;
                if (attempt >= run.policy().maxAttempts()) {
                    return Outcome.degraded(op, "timeout", attempt).streamed(events, Outcome.DROPPED);
                }
                run.sleeper().sleep(run.policy().backoff(attempt));
            }
        }
    }
}
