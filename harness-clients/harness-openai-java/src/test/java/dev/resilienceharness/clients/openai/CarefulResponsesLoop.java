package dev.resilienceharness.clients.openai;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIException;
import com.openai.models.responses.ResponseError;
import com.openai.models.responses.ResponseStreamEvent;
import dev.resilienceharness.clients.tck.CarefulStreaming;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.StringNode;

/**
 * A Responses streaming loop on a default openai-java client (its own retries left on) that emits each
 * {@code response.output_text.delta} as it comes and treats an {@code error} or {@code response.failed} event, which
 * the SDK hands it as events rather than throwing, as a broken stream. Careful, it retries only while no text has
 * arrived, and once text has been emitted keeps it and ends the op degraded; careless, it retries whenever the
 * stream breaks and emits the retry's text after what it already emitted.
 */
public class CarefulResponsesLoop implements AgentLoop {

    private final boolean careful;

    /** What broke each broken stream, as the loop saw it: the event's type and the error's code. */
    final List<String> broken = new ArrayList<>();

    CarefulResponsesLoop(boolean careful) {
        this.careful = careful;
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        OpenAIClient client = HarnessOpenAi.builder(run).build();
        return CarefulStreaming.<String>of(careful, b -> "timeout", StringNode::valueOf)
                .ops(run, op -> emitter -> stream(client, op, emitter), broken::add);
    }

    /** One streamed create: what broke it (an event's type and code, or the exception's name), or null. */
    private static String stream(OpenAIClient client, String op, CarefulStreaming.Emitter emitter) {
        String brokenBy = null;
        try (StreamResponse<ResponseStreamEvent> stream = client.responses()
                .createStreaming(ResponsesStreamingLoop.responseParams(op))) {
            boolean completed = false;
            for (ResponseStreamEvent event : (Iterable<ResponseStreamEvent>) stream.stream()::iterator) {
                emitter.event();
                if (event.isOutputTextDelta()) {
                    emitter.text(event.asOutputTextDelta().delta());
                } else if (event.isError()) {
                    brokenBy = "error " + event.asError().code().orElse("");
                } else if (event.isFailed()) {
                    brokenBy = "response.failed " + event.asFailed().response().error().map(ResponseError::code)
                            .map(Object::toString).orElse("");
                } else if (event.isCompleted()) {
                    completed = true;
                }
            }
            if (brokenBy == null && !completed) {
                brokenBy = "no response.completed";
            }
        } catch (OpenAIException | UncheckedIOException e) {
            brokenBy = e.getClass().getSimpleName();
        }
        return brokenBy;
    }
}
