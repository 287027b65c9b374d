package dev.resilienceharness.bench;

import com.openai.client.OpenAIClient;
import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.RateLimitException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.clients.openai.HarnessOpenAi;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.Rehearsal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Scenario-runs per second of a five-op scenario through the openai-java adapter on one thread: a real
 * {@code OpenAIClientImpl} with the SDK's defaults per run (its retries, JSON encoding and decoding, its retry waits
 * on the virtual clock), answered from labelled cassettes with mixed faults.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class OpenAiAdapterBenchmark {

    static final List<String> OPS = List.of("plan", "read", "patch", "test", "review");

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

    private Rehearsal rehearsal;
    private List<Scenario> scenarios;

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
        return ChatCompletionCreateParams.builder().model("gpt-4o-mini").addUserMessage("Do the " + op + " step.")
                .build();
    }

    @Setup
    public void prepare() throws Exception {
        Path dir = Files.createTempDirectory("openai-bench");
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        for (String op : OPS) {
            write(store, op);
        }
        rehearsal = Rehearsal.prepare(config, SdkLoop::new, Integer.MAX_VALUE);
        scenarios = config.scenarios();
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

    @Benchmark
    @OperationsPerInvocation(4)
    public void run(Blackhole bh) {
        for (Scenario s : scenarios) {
            bh.consume(rehearsal.run(s, null));
        }
    }
}
