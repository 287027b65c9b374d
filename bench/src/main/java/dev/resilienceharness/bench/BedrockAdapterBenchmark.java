package dev.resilienceharness.bench;

import dev.resilienceharness.clients.bedrock.HarnessBedrock;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Setup;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Scenario-runs per second of a five-op scenario through the Bedrock Runtime adapter on one thread: per run a real
 * {@code BedrockRuntimeClient} with the SDK's defaults ({@code HarnessBedrock.client(run)}: its interceptors, its
 * SigV4 signing with the placeholder credentials, its retry strategy with the backoff on the virtual clock, its JSON
 * both ways), answered from cassettes recorded through the adapter in the setup. Of the four scenarios one is clean,
 * one meets a 429 the SDK retries itself (its backoff waited virtually), one a broken tool call and one a slow first
 * token on the virtual clock.
 */
public class BedrockAdapterBenchmark extends AdapterBenchmark {

    private static final String MODEL = "anthropic.claude-3-haiku-20240307-v1:0";

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.bench.BedrockAdapterBenchmark$SdkLoop
            policy: {max_total_wait: 60s}
            scenarios:
              - {name: clean, ops: [plan, read, patch, test, review], faults: []}
              - {name: quota, ops: [plan, read, patch, test, review], faults: [quota]}
              - {name: bad-tool-call, ops: [plan, read, patch, test, review], faults: [none, none, bad_tool_call]}
              - {name: slow, ops: [plan, read, patch, test, review], faults: [{slow_first_token: {elapsed_ms: 3500}}]}
            """;

    /** A team loop on Bedrock's default client: one Converse call per op, the SDK's retry strategy underneath. */
    public static final class SdkLoop implements AgentLoop {
        @Override
        public List<Outcome> run(LoopRun run) {
            BedrockRuntimeClient client = HarnessBedrock.client(run);
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                try (var scope = run.op(op)) {
                    ConverseResponse r = client.converse(q -> q.modelId(MODEL).messages(Message.builder()
                            .role(ConversationRole.USER).content(ContentBlock.fromText(prompt(op))).build()));
                    List<ContentBlock> content = r.output().message().content();
                    out.add(Outcome.ok(op, JsonNodeFactory.instance.stringNode(content.get(0).text() + " "
                            + content.size()), 1));
                } catch (SdkException e) {
                    out.add(Outcome.degraded(op, "error", 1));
                }
            }
            return out;
        }
    }

    @Setup
    public void prepare() throws Exception {
        HarnessConfig config = config("bedrock-bench", YAML);
        // Recorded through the loop's own client from a Bedrock stand-in, with a Bedrock API key.
        record(config, SdkLoop::new, "/model/", "", "bench-bedrock-api-key", BedrockAdapterBenchmark::answer);
        rehearse(config, SdkLoop::new);
        // Measure runs that do what they should: five ops each (six calls with the SDK's retry), no real sleep.
        requireSoundRuns((s, trace) -> callsFailureSleeps(trace, OPS.size() + (s.name().equals("quota") ? 1 : 0)));
    }

    private static String answer(String op) {
        return "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"" + op
                + " done\"},{\"toolUse\":{\"toolUseId\":\"tooluse_" + op + "\",\"name\":\"apply_patch\","
                + "\"input\":{\"path\":\"" + op + ".txt\"}}}]}},\"stopReason\":\"tool_use\",\"usage\":"
                + "{\"inputTokens\":9,\"outputTokens\":2,\"totalTokens\":11},\"metrics\":{\"latencyMs\":80}}";
    }
}
