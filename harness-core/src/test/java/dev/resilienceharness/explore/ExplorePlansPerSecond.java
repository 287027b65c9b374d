package dev.resilienceharness.explore;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A throwaway measurement of explored plans per second on the built-in loop, until the bench module has a JMH
 * benchmark. Explores scenarios of the "plain" test corpus (its top-level policy, default vocabulary) with a plan
 * budget, after a warm-up round, on one thread.
 *
 * <pre>
 * ./mvnw -B -o -q -pl harness-core test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -cp harness-core/target/test-classes:harness-core/target/classes:$(cat harness-core/cp.txt) \
 *     dev.resilienceharness.explore.ExplorePlansPerSecond [plans-per-scenario] [rounds]
 * </pre>
 */
public final class ExplorePlansPerSecond {

    private ExplorePlansPerSecond() {
    }

    public static void main(String[] args) throws Exception {
        long plans = args.length > 0 ? Long.parseLong(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path yaml = Path.of(ExplorePlansPerSecond.class.getResource("/corpora/plain/resilience.yaml").toURI());
        HarnessConfig config = ConfigLoader.load(yaml);
        Rehearsal rehearsal = Rehearsal.prepare(config, LoopFactory.builtin());
        Explorer.Settings settings = Explorer.Settings.DEFAULTS.withMaxPlans(plans).withTimeLimit(Duration.ofHours(1));
        for (int round = 0; round <= rounds; round++) {
            for (int opsCount : new int[] {1, 2, 6}) {
                Scenario s = scenarioWith(config, opsCount);
                long t0 = System.nanoTime();
                ExplorationResult r = new Explorer(rehearsal).explore(s, settings);
                long t1 = System.nanoTime();
                double seconds = (t1 - t0) / 1e9;
                System.out.printf("%s %d ops (horizon %d): %d plans in %.3f s = %.0f plans/s, %d counterexamples%n",
                        round == 0 ? "warm-up" : "round " + round, s.ops().size(), PlanSpace.of(s).horizon(),
                        r.plans(), seconds, r.plans() / seconds, r.counterexamples().size());
            }
        }
    }

    /** The first corpus scenario's ops, cut to {@code n}. */
    private static Scenario scenarioWith(HarnessConfig config, int n) {
        Scenario first = config.scenarios().get(0);
        return new Scenario(first.name() + "-" + n, first.ops().subList(0, Math.min(n, first.ops().size())),
                first.faults(), first.expect(), first.policy(), first.line());
    }
}
