package dev.resilienceharness.bench;

import com.google.genai.Client;
import com.google.genai.errors.GenAiIOException;
import com.google.genai.types.GenerateContentResponse;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.clients.genai.HarnessGenai;
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
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Scenario-runs per second of a five-op scenario through the google-genai adapter on one thread: per run a real
 * {@code com.google.genai.Client} with the SDK's defaults ({@code HarnessGenai.client(run)}: its retry interceptor,
 * OkHttp's chain, its JSON both ways), answered from cassettes recorded through the adapter in the setup. Of the four
 * scenarios two are clean, one meets a broken tool call and one a slow first token on the virtual clock; none meets
 * a fault the SDK retries, since its retry layer sleeps for real (which the harness reports, not measures).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class GenaiAdapterBenchmark {

    static final List<String> OPS = List.of("plan", "read", "patch", "test", "review");

    private static final String MODEL = "gemini-2.5-flash";

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.bench.GenaiAdapterBenchmark$SdkLoop
            policy: {max_total_wait: 60s}
            scenarios:
              - {name: clean, ops: [plan, read, patch, test, review], faults: []}
              - {name: clean-again, ops: [plan, read, patch, test, review], faults: []}
              - {name: bad-tool-call, ops: [plan, read, patch, test, review], faults: [none, none, bad_tool_call]}
              - {name: slow, ops: [plan, read, patch, test, review], faults: [{slow_first_token: {elapsed_ms: 3500}}]}
            """;

    private Rehearsal rehearsal;
    private List<Scenario> scenarios;

    /** A team loop on google-genai's default client: one generateContent per op, the SDK's retry layer underneath. */
    public static final class SdkLoop implements AgentLoop {
        @Override
        public List<Outcome> run(LoopRun run) {
            Client client = HarnessGenai.client(run);
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                try (var scope = run.op(op)) {
                    GenerateContentResponse r = client.models.generateContent(MODEL, prompt(op), null);
                    // The text part and the call, read apart: r.text() logs a warning for every non-text part.
                    String text = r.parts().get(0).text().orElse("");
                    out.add(Outcome.ok(op, JsonNodeFactory.instance.stringNode(text + " " + r.functionCalls().size()),
                            1));
                } catch (GenAiIOException e) {
                    out.add(Outcome.degraded(op, "schema", 1));
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
        Path dir = Files.createTempDirectory("genai-bench");
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        record(config);
        rehearsal = Rehearsal.prepare(config, SdkLoop::new, Integer.MAX_VALUE);
        scenarios = config.scenarios();
        // Measure runs that do what they should: five calls each, no failed run, no real sleep.
        for (Scenario s : scenarios) {
            RunTrace trace = rehearsal.run(s, null);
            if (trace.failure() != null || trace.calls().size() != OPS.size() || !trace.realSleeps().isEmpty()) {
                throw new IllegalStateException(s.name() + ": " + trace.calls().size() + " calls, failure "
                        + trace.failure() + ", real sleeps " + trace.realSleeps());
            }
        }
    }

    /** Records every op through the loop's own client from a Gemini provider on 127.0.0.1, as resilience:record does. */
    private static void record(HarnessConfig config) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1beta/models/", GenaiAdapterBenchmark::answer);
        server.start();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1beta");
            LoopRecorder.prepare(config, SdkLoop::new).recordMissing(config.scenarios().get(0),
                    LiveHttp.to(base, "bench-key", Duration.ofSeconds(10)), RecordingRedaction.forConfig(config));
        } finally {
            server.stop(0);
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String op = OPS.stream().filter(o -> request.contains(prompt(o))).findFirst().orElse("unknown");
        byte[] body = ("{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"" + op
                + " done\"},{\"functionCall\":{\"name\":\"apply_patch\",\"args\":{\"path\":\"" + op + ".txt\"}}}]},"
                + "\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":9,"
                + "\"candidatesTokenCount\":2,\"totalTokenCount\":11},\"modelVersion\":\"" + MODEL + "\","
                + "\"responseId\":\"r-" + op + "\"}").getBytes(StandardCharsets.UTF_8);
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
