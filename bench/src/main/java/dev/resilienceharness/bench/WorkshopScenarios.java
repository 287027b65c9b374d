package dev.resilienceharness.bench;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The corpus's scenarios as the workshop's Python loop ({@code bench/python/workshop_harness.py}) can run them, for
 * {@code bench/python/loop_bench.py}: each op's recorded response, and each scenario's ops and fault plan in the
 * workshop's three failure classes. Its loop knows no process restart, so scenarios with a {@code crash} are left
 * out (and any fault kind it has no class for: {@link #runnable}), and {@code LoopBenchmark} runs the same subset with {@code -p scenarios=workshop}.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.resilienceharness.bench.WorkshopScenarios &lt;corpus&gt; &lt;out.json&gt;</pre>
 */
public final class WorkshopScenarios {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private WorkshopScenarios() {
    }

    /** Whether the workshop's loop can run {@code s}: every fault is one of its failure classes, or none. */
    static boolean runnable(Scenario s) {
        return s.faults().stream().allMatch(f -> f instanceof NoFault || f instanceof SlowFirstTokenFault
                || f instanceof TimeoutFault || f instanceof ServerErrorFault || f instanceof BadToolCallFault
                || f instanceof QuotaFault);
    }

    /** The scenarios of {@code config} that {@link #runnable} keeps, in yaml order. */
    static List<Scenario> of(HarnessConfig config) {
        return config.scenarios().stream().filter(WorkshopScenarios::runnable).toList();
    }

    public static void main(String[] args) throws IOException, CassetteException {
        if (args.length != 2) {
            System.err.println("usage: WorkshopScenarios <corpus folder> <out.json>");
            System.exit(2);
        }
        HarnessConfig config = BenchCorpus.config(args[0]);
        VolatilePaths volatilePaths = VolatilePaths.of(config.volatilePaths());
        CassetteStore store = CassetteStore.replaying(config.cassettes(), volatilePaths);
        CassetteReader reader = new CassetteReader(config.cassettes(), volatilePaths);
        List<Scenario> scenarios = of(config);
        ObjectNode out = NODES.objectNode();
        out.putObject("policy").put("max_attempts", config.policy().maxAttempts())
                .put("base_delay", config.policy().baseDelay().toNanos() / 1e9);
        ObjectNode cassette = out.putObject("cassette");
        ArrayNode list = out.putArray("scenarios");
        for (Scenario s : scenarios) {
            ObjectNode entry = list.addObject();
            entry.put("name", s.name());
            ArrayNode ops = entry.putArray("ops");
            for (String op : s.ops()) {
                ops.add(op);
                if (!cassette.has(op)) {
                    Path file = store.fileFor(store.fingerprint(config.sharedRequest(op)));
                    cassette.set(op, reader.read(file).response());
                }
            }
            ArrayNode faults = entry.putArray("faults");
            for (Fault f : s.faults()) {
                if (f instanceof NoFault || f instanceof SlowFirstTokenFault) {
                    // A late answer is still the answer: the workshop's loop does not look at timing.
                    faults.addNull();
                } else if (f instanceof TimeoutFault || f instanceof ServerErrorFault) {
                    faults.add("transient");
                } else if (f instanceof BadToolCallFault) {
                    faults.add("bad_tool_call");
                } else if (f instanceof QuotaFault q) {
                    faults.addObject().put("quota", q.retryAfter());
                } else {
                    throw new IllegalStateException(s.name() + ": the workshop's loop has no " + f);
                }
            }
        }
        Path target = Path.of(args[1]);
        Files.createDirectories(target.toAbsolutePath().getParent());
        Files.writeString(target, Json.compact(out), StandardCharsets.UTF_8);
        System.out.println("Wrote " + target + ": " + scenarios.size() + " of " + config.scenarios().size()
                + " scenarios (those without a crash), " + cassette.size() + " answers");
    }
}
