package dev.resilienceharness.clients.openai;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIException;
import com.openai.models.ChatModel;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.StringNode;

/**
 * A team's streaming loop with openai-java: each op's answer read chunk by chunk with {@code createStreaming}, its
 * text emitted as it comes; a stream that breaks is retried under the policy's {@code max_attempts} with its backoff,
 * and the partial text of the broken stream is dropped before the retry.
 */
public class StreamingLoop implements AgentLoop {

    /** Whether the text of a broken stream is kept and the retry's text appended to it (the salvage bug). */
    protected boolean keepsPartialText() {
        return false;
    }

    static ChatCompletionCreateParams params(String op) {
        return ChatCompletionCreateParams.builder().model(ChatModel.GPT_4O_MINI)
                .addUserMessage("Stream the " + op + " step.").build();
    }

    /** Every exception a broken stream reached the loop with, in order. */
    final List<RuntimeException> broken = new ArrayList<>();

    @Override
    public List<Outcome> run(LoopRun run) {
        OpenAIClient client = HarnessOpenAi.builder(run).maxRetries(0).build();
        List<Outcome> outcomes = new ArrayList<>();
        for (String op : run.ops()) {
            try (var scope = run.op(op)) {
                outcomes.add(attempt(run, client, op));
            }
        }
        return outcomes;
    }

    /** The op's answer, read as a stream and retried as the class comment says. */
    protected Outcome attempt(LoopRun run, OpenAIClient client, String op) {
        StringBuilder emitted = new StringBuilder();
        int attempts = 0;
        Integer brokenAfter = null;
        while (true) {
            attempts++;
            int events = 0;
            if (!keepsPartialText()) {
                emitted.setLength(0);
            }
            try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions()
                    .createStreaming(params(op))) {
                for (ChatCompletionChunk chunk : (Iterable<ChatCompletionChunk>) stream.stream()::iterator) {
                    events++;
                    for (ChatCompletionChunk.Choice choice : chunk.choices()) {
                        choice.delta().content().ifPresent(emitted::append);
                    }
                }
                Outcome ok = Outcome.ok(op, StringNode.valueOf(emitted.toString()), attempts);
                return brokenAfter == null ? ok
                        : ok.streamed(brokenAfter, keepsPartialText() ? Outcome.KEPT : Outcome.DROPPED);
            } catch (OpenAIException | UncheckedIOException e) {
                broken.add(e);
                brokenAfter = events;
                if (attempts >= run.policy().maxAttempts()) {
                    return Outcome.degraded(op, "timeout", attempts).streamed(events, Outcome.DROPPED);
                }
                run.sleeper().sleep(run.policy().backoff(attempts));
            }
        }
    }

    /** The same loop with the salvage bug: the retry's text is appended to what the broken stream brought. */
    public static final class KeepsPartialText extends StreamingLoop {
        @Override
        protected boolean keepsPartialText() {
            return true;
        }
    }
}
