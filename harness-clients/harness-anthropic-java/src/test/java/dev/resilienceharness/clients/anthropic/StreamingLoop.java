package dev.resilienceharness.clients.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicException;
import com.anthropic.models.messages.RawContentBlockDeltaEvent;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.StringNode;

/**
 * A team's streaming loop with anthropic-java: each step read event by event with
 * {@code messages().createStreaming}, its text emitted as each {@code text_delta} comes and a tool's input gathered
 * from its {@code input_json_delta} pieces. A stream that breaks (a dropped connection, an {@code error} event, a
 * stall) is retried under the policy's {@code max_attempts} with its backoff, the broken stream's text dropped before
 * the retry; tool input that is not JSON is a schema failure.
 */
public class StreamingLoop implements AgentLoop {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every exception a broken stream reached the loop with, in order. */
    final List<RuntimeException> broken = new ArrayList<>();

    /** The tool input each step gathered, as it arrived. */
    final List<String> toolInputs = new ArrayList<>();

    @Override
    public List<Outcome> run(LoopRun run) {
        AnthropicClient client = HarnessAnthropic.builder(run).maxRetries(0).build();
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
        StringBuilder input = new StringBuilder();
        int attempts = 0;
        Integer brokenAfter = null;
        while (true) {
            attempts++;
            int events = 0;
            emitted.setLength(0);
            input.setLength(0);
            try (StreamResponse<RawMessageStreamEvent> stream = client.messages()
                    .createStreaming(FixAgent.params(op))) {
                for (RawMessageStreamEvent event : (Iterable<RawMessageStreamEvent>) stream.stream()::iterator) {
                    events++;
                    event.contentBlockDelta().map(RawContentBlockDeltaEvent::delta).ifPresent(delta -> {
                        delta.text().ifPresent(t -> emitted.append(t.text()));
                        delta.inputJson().ifPresent(j -> input.append(j.partialJson()));
                    });
                }
            } catch (AnthropicException | UncheckedIOException e) {
                broken.add(e);
                brokenAfter = events;
                if (attempts >= run.policy().maxAttempts()) {
                    return Outcome.degraded(op, "timeout", attempts).streamed(events, Outcome.DROPPED);
                }
                run.sleeper().sleep(run.policy().backoff(attempts));
                continue;
            }
            Outcome ok;
            if (input.length() > 0) {
                toolInputs.add(input.toString());
                try {
                    ok = Outcome.ok(op, StringNode.valueOf(JSON.readTree(input.toString()).path("path").asText()),
                            attempts);
                } catch (JsonProcessingException e) {
                    return Outcome.degraded(op, "schema", attempts);
                }
            } else {
                ok = Outcome.ok(op, StringNode.valueOf(emitted.toString()), attempts);
            }
            return brokenAfter == null ? ok : ok.streamed(brokenAfter, Outcome.DROPPED);
        }
    }
}
