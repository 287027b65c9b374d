package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.scenario.KeptAnswers;
import dev.resilienceharness.scenario.StallBound;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.shard.ShardMessages;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * What a goal's pass needs besides the config: where it logs, which shard it does, and how it runs scenarios. A goal
 * makes one from its parameters; a check in a JVM of its own ({@link ForkedCheck}) makes one from what Maven's JVM
 * sent it, so that both run the same code.
 */
final class ScenarioRunner {

    /** The project's test classpath, resolved only when a scenario runs. */
    interface TestClasspath {
        List<String> get() throws MojoExecutionException;
    }

    private final Log log;
    private final String goal;
    private final Shard shard;
    private final int runs;
    private final Duration stallBound;
    private final TestClasspath testClasspath;

    /** @param stallBound how long a run of a team's loop may make no call and no wait ({@code StallBound}) */
    ScenarioRunner(Log log, String goal, Shard shard, int runs, Duration stallBound, TestClasspath testClasspath) {
        this.log = log;
        this.goal = goal;
        this.shard = shard;
        this.runs = runs;
        this.stallBound = stallBound;
        this.testClasspath = testClasspath;
    }

    /** The stall bound a goal's {@code stallTimeout} sets, or the default when it is unset. */
    static Duration stallBound(String stallTimeout) throws MojoExecutionException {
        try {
            return StallBound.of(stallTimeout);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(e.getMessage());
        }
    }

    Log log() {
        return log;
    }

    String goal() {
        return goal;
    }

    Shard part() {
        return shard;
    }

    int runs() {
        return runs;
    }

    /** {@code config} with the scenarios of this shard only, saying how many they are when it is a part. */
    HarnessConfig shardOf(HarnessConfig config) {
        if (shard.whole()) {
            return config;
        }
        HarnessConfig mine = shard.scenariosOf(config);
        log.info(ShardMessages.scenarios(shard, mine.scenarios().size(), config.scenarios().size()));
        return mine;
    }

    /**
     * Runs the scenarios of {@code config} for {@code invariants}; setup problems (missing cassette, unusable loop)
     * fail the goal.
     *
     * @param verifiedFingerprints the ops' fingerprints from a cassette integrity check that found every op's
     *                             cassette, so that the cassettes are read only as the runs need them; or {@code null}
     * @param kept                 the answers the integrity check has already read (may be {@code null})
     * @param keep                 what of each scenario's report is kept when the scenario finishes
     */
    List<ScenarioReport> run(HarnessConfig config, Set<Invariant> invariants, Map<String, String> verifiedFingerprints,
            KeptAnswers kept, UnaryOperator<ScenarioReport> keep) throws MojoExecutionException {
        if (config.scenarios().isEmpty()) {
            log.warn(ScenarioScope.noScenarios(config, goal));
            return List.of();
        }
        if (runs < 2 && invariants.contains(Invariant.DETERMINISM)) {
            throw new MojoExecutionException("resilience.runs is " + runs + "; determinism needs at least 2 runs");
        }
        String nowhere = dev.resilienceharness.config.ConfigFile.cassettesNowhere(config);
        if (nowhere != null) {
            throw new MojoExecutionException(nowhere);
        }
        ScenarioLauncher.Outcome outcome = ScenarioLauncher.run(config, invariants, runs, stallBound,
                testClasspath.get(), verifiedFingerprints, kept, keep);
        if (!outcome.setupErrors().isEmpty()) {
            throw new MojoExecutionException(String.join(System.lineSeparator(), outcome.setupErrors()));
        }
        int ran = outcome.scenarios().size();
        log.info("Ran " + ran + (ran == 1 ? " scenario" : " scenarios") + " of " + config.file().getFileName()
                + " with loop " + config.loop() + (invariants.contains(Invariant.DETERMINISM)
                        ? ", comparing " + runs + " runs of each for determinism" : ""));
        return outcome.scenarios();
    }
}
