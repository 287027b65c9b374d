package dev.resilienceharness.bench;

import com.openai.client.OpenAIClient;
import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.RateLimitException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.clients.openai.HarnessOpenAi;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Setup;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Scenario-runs per second of a five-op scenario through the openai-java adapter on one thread: a real
 * {@code OpenAIClientImpl} with the SDK's defaults per run (its retries, JSON encoding and decoding, its retry waits
 * on the virtual clock), answered from labelled cassettes with mixed faults.
 */
public class OpenAiAdapterBenchmark extends AdapterBenchmark {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.bench.OpenAiAdapterBenchmark$SdkLoop
            policy: {max_total_wait: 60s}
            scenarios:
              - {name: clean, ops: [plan, read, patch, test, review], faults: []}
              - {name: quota, ops: [plan, read, patch, test, review], faults: [none, quota]}
              - {name: retry-after, ops: [plan, read, patch, test, review], faults: [{quota: {retry_after: "1"}}]}
              - {name: timeouts, ops: [plan, read, patch, test, review], faults: [none, none, timeout, server_error]}
            """;

    /** A team loop on openai-java's default client: one create per op, the SDK's retries underneath. */
    public static final class SdkLoop implements AgentLoop {
        @Override
        public List<Outcome> run(LoopRun run) {
            OpenAIClient client = HarnessOpenAi.client(run);
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                try (var scope = run.op(op)) {
                    String text = client.chat().completions().create(params(op)).choices().get(0).message()
                            .content().orElse("");
                    out.add(Outcome.ok(op, JsonNodeFactory.instance.stringNode(text), 1));
                } catch (RateLimitException e) {
                    out.add(Outcome.stopped(op, null, 1));
                    break;
                } catch (InternalServerException | OpenAIIoException e) {
                    out.add(Outcome.degraded(op, "timeout", 1));
                }
            }
            return out;
        }
    }

    static ChatCompletionCreateParams params(String op) {
        return ChatCompletionCreateParams.builder().model("gpt-4o-mini").addUserMessage(prompt(op))
                .build();
    }

    @Setup
    public void prepare() throws Exception {
        HarnessConfig config = config("openai-bench", YAML);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        for (String op : OPS) {
            write(store, op);
        }
        rehearse(config, SdkLoop::new);
    }

    private static void write(CassetteStore store, String op) throws IOException {
        ObjectNode request = (ObjectNode) Json.readTree("{\"messages\":[{\"content\":\"Do the " + op
                + " step.\",\"role\":\"user\"}],\"model\":\"gpt-4o-mini\"}");
        ObjectNode response = (ObjectNode) Json.readTree("{\"object\":\"chat.completion\",\"model\":\"gpt-4o-mini\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + op + " done\"},"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2,"
                + "\"total_tokens\":11}}");
        store.write(request, response, null, op);
    }
}
