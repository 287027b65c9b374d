package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.ConfigFile;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.scenario.KeptAnswers;
import dev.resilienceharness.scenario.StallBound;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.shard.ShardMessages;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;

/**
 * What a goal's pass needs besides the config: where it logs, which shard it does, and how it runs scenarios. A goal
 * makes one from its parameters; a check in a JVM of its own makes one from what Maven's JVM
 * sent it, so that both run the same code.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ScenarioRunner {

    /** The project's test classpath, resolved only when a scenario runs. */
    public interface TestClasspath {
        List<String> get() throws RunError;
    }

    private final RunLog log;
    private final String goal;
    private final Shard shard;
    private final int runs;
    private final Duration stallBound;
    private final TestClasspath testClasspath;

    /** @param stallBound how long a run of a team's loop may make no call and no wait ({@code StallBound}) */
    public ScenarioRunner(RunLog log, String goal, Shard shard, int runs, Duration stallBound,
            TestClasspath testClasspath) {
        this.log = log;
        this.goal = goal;
        this.shard = shard;
        this.runs = runs;
        this.stallBound = stallBound;
        this.testClasspath = testClasspath;
    }

    /** The stall bound a goal's {@code stallTimeout} sets, or the default when it is unset. */
    public static Duration stallBound(String stallTimeout) throws RunError {
        try {
            return StallBound.of(stallTimeout);
        } catch (IllegalArgumentException e) {
            throw new RunError(e.getMessage());
        }
    }

    public RunLog log() {
        return log;
    }

    public String goal() {
        return goal;
    }

    public Shard part() {
        return shard;
    }

    public int runs() {
        return runs;
    }

    /** {@code config} with the scenarios of this shard only, saying how many they are when it is a part. */
    public HarnessConfig shardOf(HarnessConfig config) {
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
    public List<ScenarioReport> run(HarnessConfig config, Set<Invariant> invariants,
            Map<String, String> verifiedFingerprints, KeptAnswers kept, UnaryOperator<ScenarioReport> keep)
            throws RunError {
        if (config.scenarios().isEmpty()) {
            log.warn(ScenarioScope.noScenarios(config, goal));
            return List.of();
        }
        if (runs < 2 && invariants.contains(Invariant.DETERMINISM)) {
            throw new RunError("resilience.runs is " + runs + "; determinism needs at least 2 runs");
        }
        String nowhere = ConfigFile.cassettesNowhere(config);
        if (nowhere != null) {
            throw new RunError(nowhere);
        }
        ScenarioLauncher.Outcome outcome = ScenarioLauncher.run(config, invariants, runs, stallBound,
                testClasspath.get(), verifiedFingerprints, kept, keep);
        if (!outcome.setupErrors().isEmpty()) {
            throw new RunError(String.join(System.lineSeparator(), outcome.setupErrors()));
        }
        int ran = outcome.scenarios().size();
        log.info("Ran " + ran + (ran == 1 ? " scenario" : " scenarios") + " of " + config.file().getFileName()
                + " with loop " + config.loop() + (invariants.contains(Invariant.DETERMINISM)
                        ? ", comparing " + runs + " runs of each for determinism" : ""));
        return outcome.scenarios();
    }
}
