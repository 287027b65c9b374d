package dev.resilienceharness.bench;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.SetupException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Scenario-runs per second of the built-in loop on one thread, over the corpus's 2,000 scenarios prepared once.
 * {@code run} is one run of a scenario (loop, transport, faults, virtual clock); {@code check} is what every goal
 * does per scenario: two runs (determinism) and all five scenario invariants, counted as one scenario.
 *
 * <p>With {@code answers=all} every op's recorded answer stays in memory, as a harness that loads its cassettes once
 * does: the figure is the loop's. With {@code answers=streamed} the rehearsal keeps its default bounded cache, as the
 * goals run it, so a run of this 10,000-op corpus reads and parses its five cassettes again.
 *
 * <p>With {@code scenarios=workshop} only the scenarios the workshop's Python loop can run are run (those without a
 * crash, {@link WorkshopScenarios}), the same ones {@code bench/python/loop_bench.py} times: {@code bench/loop-vs-python.sh}
 * runs both.
 *
 * <p>With {@code loop=team} the same built-in loop comes from a factory of its own, so that each run is run as a
 * team's loop is: on a run thread, watched for a stall ({@code StallBound}). The difference from {@code loop=builtin}
 * is what that costs a run: {@code bench/run.sh LoopBenchmark.run -p answers=all -p scenarios=all -p loop=builtin,team}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class LoopBenchmark {

    /** The corpus's scenario count; every invocation runs them all. */
    static final int SCENARIOS = 2000;

    @Param("target/corpus")
    public String corpus;

    @Param({"all", "streamed"})
    public String answers;

    @Param({"all", "workshop"})
    public String scenarios;

    @Param("builtin")
    public String loop;

    private Rehearsal rehearsal;
    private List<Scenario> toRun;

    @Setup
    public void prepare() throws SetupException {
        HarnessConfig config = BenchCorpus.config(corpus);
        if (config.scenarios().size() != SCENARIOS) {
            throw new IllegalStateException("expected " + SCENARIOS + " scenarios, found " + config.scenarios().size());
        }
        LoopFactory loops = switch (loop) {
            case "builtin" -> LoopFactory.builtin();
            // The built-in loop as any other factory gives it: a team's loop, to the rehearsal.
            case "team" -> dev.resilienceharness.loop.BuiltinLoop::new;
            default -> throw new IllegalArgumentException("loop is builtin or team, not " + loop);
        };
        rehearsal = answers.equals("all") ? Rehearsal.prepare(config, loops, Integer.MAX_VALUE)
                : Rehearsal.prepare(config, loops);
        toRun = scenarios.equals("workshop") ? WorkshopScenarios.of(config) : config.scenarios();
        // Each invocation counts SCENARIOS runs: the list is repeated (and cut) to that length.
        List<Scenario> repeated = new java.util.ArrayList<>(SCENARIOS);
        for (int i = 0; repeated.size() < SCENARIOS; i++) {
            repeated.add(toRun.get(i % toRun.size()));
        }
        toRun = repeated;
    }

    @Benchmark
    @OperationsPerInvocation(SCENARIOS)
    public void run(Blackhole bh) {
        for (Scenario s : toRun) {
            bh.consume(rehearsal.run(s, null));
        }
    }

    @Benchmark
    @OperationsPerInvocation(SCENARIOS)
    public void check(Blackhole bh) {
        for (Scenario s : toRun) {
            bh.consume(rehearsal.check(s, 2, Rehearsal.RUN_INVARIANTS));
        }
    }
}
