package dev.resilienceharness.clients.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicException;
import com.anthropic.models.messages.RawContentBlockDeltaEvent;
import com.anthropic.models.messages.RawMessageStreamEvent;
import dev.resilienceharness.clients.tck.CarefulStreaming;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.node.StringNode;

/**
 * A streaming loop on a default anthropic-java client (its own retries left on) that emits each {@code text_delta}
 * as it comes. Careful, it retries a broken stream only while no text has arrived, and once text has been emitted
 * keeps it and ends the op degraded; careless, it retries whenever the stream breaks and emits the retry's text after
 * what it already emitted, so the beginning appears twice.
 */
public class CarefulStreamingLoop implements AgentLoop {

    private final boolean careful;
    private final Function<LoopRun, AnthropicClient> clients;
    private final String model;

    /** Every exception a broken stream reached the loop with, in order. */
    final List<RuntimeException> broken = new ArrayList<>();

    CarefulStreamingLoop(boolean careful) {
        this(careful, run -> HarnessAnthropic.builder(run).build(), FixAgent.MODEL);
    }

    /** The loop on the client {@code clients} gives, asking {@code model} (as the client's backend names it). */
    CarefulStreamingLoop(boolean careful, Function<LoopRun, AnthropicClient> clients, String model) {
        this.careful = careful;
        this.clients = clients;
        this.model = model;
    }

    @Override
    public List<Outcome> run(LoopRun run) {
        AnthropicClient client = clients.apply(run);
        return CarefulStreaming.<RuntimeException>of(careful, e -> "timeout", StringNode::valueOf)
                .ops(run, op -> emitter -> stream(client, op, emitter), broken::add);
    }

    private RuntimeException stream(AnthropicClient client, String op, CarefulStreaming.Emitter emitter) {
        try (StreamResponse<RawMessageStreamEvent> stream = client.messages()
                .createStreaming(FixAgent.params(op, model))) {
            for (RawMessageStreamEvent event : (Iterable<RawMessageStreamEvent>) stream.stream()::iterator) {
                emitter.event();
                event.contentBlockDelta().map(RawContentBlockDeltaEvent::delta)
                        .flatMap(d -> d.text()).ifPresent(t -> emitter.text(t.text()));
            }
            return null;
        } catch (AnthropicException | UncheckedIOException e) {
            return e;
        }
    }
}
