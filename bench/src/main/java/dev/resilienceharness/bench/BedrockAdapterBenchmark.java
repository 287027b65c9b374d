package dev.resilienceharness.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.clients.bedrock.HarnessBedrock;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.RunTrace;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class BedrockAdapterBenchmark {

    static final List<String> OPS = List.of("plan", "read", "patch", "test", "review");

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

    private Rehearsal rehearsal;
    private List<Scenario> scenarios;

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

    static String prompt(String op) {
        return "Do the " + op + " step.";
    }

    @Setup
    public void prepare() throws Exception {
        Path dir = Files.createTempDirectory("bedrock-bench");
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        record(config);
        rehearsal = Rehearsal.prepare(config, SdkLoop::new, Integer.MAX_VALUE);
        scenarios = config.scenarios();
        // Measure runs that do what they should: five ops each (six calls with the SDK's retry), no real sleep.
        for (Scenario s : scenarios) {
            RunTrace trace = rehearsal.run(s, null);
            int calls = OPS.size() + (s.name().equals("quota") ? 1 : 0);
            if (trace.failure() != null || trace.calls().size() != calls || !trace.realSleeps().isEmpty()) {
                throw new IllegalStateException(s.name() + ": " + trace.calls().size() + " calls, failure "
                        + trace.failure() + ", real sleeps " + trace.realSleeps());
            }
        }
    }

    /** Records every op through the loop's own client from a Bedrock stand-in on 127.0.0.1, with a Bedrock API key. */
    private static void record(HarnessConfig config) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/model/", BedrockAdapterBenchmark::answer);
        server.start();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            LoopRecorder.prepare(config, SdkLoop::new).recordMissing(config.scenarios().get(0),
                    LiveHttp.to(base, "bench-bedrock-api-key", Duration.ofSeconds(10)),
                    RecordingRedaction.forConfig(config));
        } finally {
            server.stop(0);
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String op = OPS.stream().filter(o -> request.contains(prompt(o))).findFirst().orElse("unknown");
        byte[] body = ("{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"text\":\"" + op
                + " done\"},{\"toolUse\":{\"toolUseId\":\"tooluse_" + op + "\",\"name\":\"apply_patch\","
                + "\"input\":{\"path\":\"" + op + ".txt\"}}}]}},\"stopReason\":\"tool_use\",\"usage\":"
                + "{\"inputTokens\":9,\"outputTokens\":2,\"totalTokens\":11},\"metrics\":{\"latencyMs\":80}}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Benchmark
    @OperationsPerInvocation(4)
    public void run(Blackhole bh) {
        for (Scenario s : scenarios) {
            bh.consume(rehearsal.run(s, null));
        }
    }
}
