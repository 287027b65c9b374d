package dev.resilienceharness.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.loop.LoopFactory;
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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the adapter benchmarks share: four scenarios of a yaml rehearsed through one SDK's team loop on one thread,
 * measured as scenario-runs per second; each subclass's {@code @Setup} writes or records the cassettes and calls
 * {@link #rehearse}. JMH names the inherited benchmark after the subclass ({@code OpenAiAdapterBenchmark.run}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public abstract class AdapterBenchmark {

    static final List<String> OPS = List.of("plan", "read", "patch", "test", "review");

    private Rehearsal rehearsal;
    private List<Scenario> scenarios;

    /** The user message every op of the model-call benchmarks sends. */
    static String prompt(String op) {
        return "Do the " + op + " step.";
    }

    /** The yaml written to a fresh temporary project and loaded as the goals load it. */
    static HarnessConfig config(String tempPrefix, String yaml) throws Exception {
        Path dir = Files.createTempDirectory(tempPrefix);
        Files.writeString(dir.resolve("resilience.yaml"), yaml);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    /** Prepares the rehearsal the benchmark measures, once its cassettes are in place. */
    final void rehearse(HarnessConfig config, LoopFactory loop) throws Exception {
        rehearsal = Rehearsal.prepare(config, loop, Integer.MAX_VALUE);
        scenarios = config.scenarios();
    }

    /**
     * Runs each scenario once and stops the setup where a run does not do what it should, so that only sound runs are
     * measured; {@code wrong} says what is wrong with a run, or null.
     */
    final void requireSoundRuns(BiFunction<Scenario, RunTrace, String> wrong) {
        for (Scenario s : scenarios) {
            String problem = wrong.apply(s, rehearsal.run(s, null));
            if (problem != null) {
                throw new IllegalStateException(s.name() + ": " + problem);
            }
        }
    }

    /** What is wrong with a run that should make {@code calls} calls, with no failure and no real sleep; or null. */
    static String callsFailureSleeps(RunTrace trace, int calls) {
        if (trace.failure() == null && trace.calls().size() == calls && trace.realSleeps().isEmpty()) {
            return null;
        }
        return trace.calls().size() + " calls, failure " + trace.failure() + ", real sleeps " + trace.realSleeps();
    }

    /**
     * Records every op of the first scenario through the loop's own client, as resilience:record does, from a
     * provider stand-in on 127.0.0.1 that answers each request under {@code context} with {@code answer} of the op
     * whose prompt it carries (a JSON body, status 200).
     */
    static void record(HarnessConfig config, LoopFactory loop, String context, String basePath, String apiKey,
            Function<String, String> answer) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(context, exchange -> answer(exchange, answer));
        server.start();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + basePath);
            LoopRecorder.prepare(config, loop).recordMissing(config.scenarios().get(0),
                    LiveHttp.to(base, apiKey, Duration.ofSeconds(10)), RecordingRedaction.forConfig(config));
        } finally {
            server.stop(0);
        }
    }

    private static void answer(HttpExchange exchange, Function<String, String> answer) throws IOException {
        String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String op = OPS.stream().filter(o -> request.contains(prompt(o))).findFirst().orElse("unknown");
        byte[] body = answer.apply(op).getBytes(StandardCharsets.UTF_8);
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
