package dev.resilienceharness.clients.openai;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIException;
import com.openai.models.ChatModel;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * A team's streaming loop on the Responses API with openai-java: each op's answer read event by event with
 * {@code responses().createStreaming}, its text emitted as the {@code response.output_text.delta} events come. A
 * stream that breaks (a dropped connection, an event that does not parse, an {@code error} event, a stall past the
 * read timeout) is retried under the policy's {@code max_attempts} with its backoff, and the partial text of the
 * broken stream is dropped before the retry. The outcome is the text, the output tokens {@code response.completed}
 * reported, whether the text it carries agrees with the deltas, and what broke each earlier attempt.
 */
public class ResponsesStreamingLoop extends StreamingLoop {

    static ResponseCreateParams responseParams(String op) {
        return ResponseCreateParams.builder().model(ChatModel.GPT_4_1_MINI).input("Stream the " + op + " step.")
                .build();
    }

    @Override
    protected Outcome attempt(LoopRun run, OpenAIClient client, String op) {
        StringBuilder emitted = new StringBuilder();
        List<String> brokenBy = new ArrayList<>();
        int attempts = 0;
        Integer brokenAfter = null;
        while (true) {
            attempts++;
            int events = 0;
            if (!keepsPartialText()) {
                emitted.setLength(0);
            }
            try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(responseParams(op))) {
                Response completed = null;
                for (ResponseStreamEvent event : (Iterable<ResponseStreamEvent>) stream.stream()::iterator) {
                    events++;
                    if (event.isOutputTextDelta()) {
                        emitted.append(event.asOutputTextDelta().delta());
                    } else if (event.isError()) {
                        throw new BrokenStream(event.asError().code().orElse("error") + ": "
                                + event.asError().message());
                    } else if (event.isCompleted()) {
                        completed = event.asCompleted().response();
                    }
                }
                if (completed == null) {
                    throw new BrokenStream("the stream ended before response.completed");
                }
                ObjectNode value = JsonNodeFactory.instance.objectNode().put("text", emitted.toString())
                        .put("output_tokens", completed.usage().orElseThrow().outputTokens())
                        .put("completed_agrees", emitted.toString().equals(completed.output().get(0).asMessage()
                                .content().get(0).asOutputText().text()));
                brokenBy.forEach(value.putArray("broken_by")::add);
                Outcome ok = Outcome.ok(op, value, attempts);
                return brokenAfter == null ? ok
                        : ok.streamed(brokenAfter, keepsPartialText() ? Outcome.KEPT : Outcome.DROPPED);
            } catch (OpenAIException | UncheckedIOException | BrokenStream e) {
                brokenBy.add(e.getClass().getSimpleName());
                brokenAfter = events;
                if (attempts >= run.policy().maxAttempts()) {
                    return Outcome.degraded(op, "timeout", attempts).streamed(events, Outcome.DROPPED);
                }
                run.sleeper().sleep(run.policy().backoff(attempts));
            }
        }
    }

    /** An {@code error} event, or a stream without its end: the loop retries it like a dropped connection. */
    static final class BrokenStream extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BrokenStream(String message) {
            super(message);
        }
    }

    /** The same loop with the salvage bug: the retry's text is appended to what the broken stream brought. */
    public static final class KeepsPartialText extends ResponsesStreamingLoop {
        @Override
        protected boolean keepsPartialText() {
            return true;
        }
    }

    /** The request asked whole ({@code responses().create}), as a team records it. */
    public static final class Whole extends ResponsesStreamingLoop {
        @Override
        protected Outcome attempt(LoopRun run, OpenAIClient client, String op) {
            Response response = client.responses().create(responseParams(op));
            String text = response.output().get(0).asMessage().content().get(0).asOutputText().text();
            return Outcome.ok(op, StringNode.valueOf(text), 1);
        }
    }
}
