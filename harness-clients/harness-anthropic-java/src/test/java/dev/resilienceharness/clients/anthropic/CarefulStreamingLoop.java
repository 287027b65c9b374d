package dev.resilienceharness.clients.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicException;
import com.anthropic.models.messages.RawContentBlockDeltaEvent;
import com.anthropic.models.messages.RawMessageStreamEvent;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
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
        List<Outcome> outcomes = new ArrayList<>();
        for (String op : run.ops()) {
            try (var scope = run.op(op)) {
                outcomes.add(attempt(run, client, op));
            }
        }
        return outcomes;
    }

    private Outcome attempt(LoopRun run, AnthropicClient client, String op) {
        StringBuilder emitted = new StringBuilder();
        int attempts = 0;
        while (true) {
            attempts++;
            int events = 0;
            int before = emitted.length();
            try (StreamResponse<RawMessageStreamEvent> stream = client.messages()
                    .createStreaming(FixAgent.params(op, model))) {
                for (RawMessageStreamEvent event : (Iterable<RawMessageStreamEvent>) stream.stream()::iterator) {
                    events++;
                    event.contentBlockDelta().map(RawContentBlockDeltaEvent::delta)
                            .flatMap(d -> d.text()).ifPresent(t -> emitted.append(t.text()));
                }
            } catch (AnthropicException | UncheckedIOException e) {
                broken.add(e);
                boolean textArrived = emitted.length() > before;
                if (careful && textArrived) {
                    // Emitted text cannot be taken back: a retry would emit it again.
                    return new Outcome(op, Status.DEGRADED, StringNode.valueOf(emitted.toString()), "timeout", null,
                            attempts, null, null).streamed(events, Outcome.KEPT);
                }
                if (attempts >= run.policy().maxAttempts()) {
                    return Outcome.degraded(op, "timeout", attempts);
                }
                run.sleeper().sleep(run.policy().backoff(attempts));
                continue;
            }
            return Outcome.ok(op, StringNode.valueOf(emitted.toString()), attempts);
        }
    }
}
