package dev.resilienceharness.bench;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.explore.ExplorationResult;
import dev.resilienceharness.explore.Explorer;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.SetupException;
import java.time.Duration;
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

/**
 * Fault plans explored per second on the built-in loop, on one thread: a search of {@value #PLANS} plans (the
 * goal's default budget) over the ops of the corpus's first scenario. Each plan is two runs and four invariants.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ExploreBenchmark {

    static final int PLANS = 10_000;

    @Param("target/corpus")
    public String corpus;

    private Explorer explorer;
    private Scenario scenario;
    private Explorer.Settings settings;

    @Setup
    public void prepare() throws SetupException {
        HarnessConfig config = BenchCorpus.config(corpus);
        explorer = new Explorer(Rehearsal.prepare(config, LoopFactory.builtin()));
        scenario = config.scenarios().get(0);
        settings = Explorer.Settings.DEFAULTS.withMaxPlans(PLANS).withTimeLimit(Duration.ofHours(1));
    }

    @Benchmark
    @OperationsPerInvocation(PLANS)
    public ExplorationResult explore() {
        ExplorationResult result = explorer.explore(scenario, settings);
        if (result.plans() != PLANS) {
            throw new IllegalStateException("the search ran " + result.plans() + " plans, not " + PLANS);
        }
        return result;
    }
}
