package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.shard.ShardMessages;
import dev.resilienceharness.scenario.KeptAnswers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Parameter;

/** A goal that runs scenarios: it loads the team's loop from the project's test classpath. */
public abstract class AbstractScenarioMojo extends AbstractResilienceMojo {

    /**
     * Runs the scenarios with this loop instead of the yaml's {@code loop:}: {@code builtin} or the binary class name
     * of a loop on the project's test classpath, such as {@code com.acme.agent.MyLoop}. One yaml then rehearses
     * several loops: {@code mvn verify -Dresilience.loop=com.acme.agent.OtherLoop}.
     */
    @Parameter(property = "resilience.loop")
    protected String loop;

    @Override
    protected String loopOverride() {
        return loop;
    }

    @Override
    protected boolean shards() {
        return true;
    }

    /** How many times each scenario runs for the determinism check (at least 2). */
    @Parameter(property = "resilience.runs", defaultValue = "2")
    protected int runs;

    /** Runs the scenarios for {@code invariants}; setup problems (missing cassette, unusable loop) fail the goal. */
    List<ScenarioReport> runScenarios(HarnessConfig config, Set<Invariant> invariants)
            throws MojoExecutionException {
        if (config.scenarios().isEmpty()) {
            return runScenarios(config, invariants, null);
        }
        HarnessConfig mine = shardOf(config);
        return mine.scenarios().isEmpty() ? List.of() : runScenarios(mine, invariants, null);
    }

    /** {@code config} with the scenarios of this goal's shard only, saying how many they are when it is a part. */
    HarnessConfig shardOf(HarnessConfig config) throws MojoExecutionException {
        Shard shard = part();
        if (shard.whole()) {
            return config;
        }
        HarnessConfig mine = shard.scenariosOf(config);
        getLog().info(ShardMessages.scenarios(shard, mine.scenarios().size(), config.scenarios().size()));
        return mine;
    }

    /**
     * As {@link #runScenarios(HarnessConfig, Set)}; with the ops' {@code verifiedFingerprints} from a cassette
     * integrity check that found every op's cassette, the cassettes are not read up front again but only as the runs
     * need them.
     */
    List<ScenarioReport> runScenarios(HarnessConfig config, Set<Invariant> invariants,
            Map<String, String> verifiedFingerprints)
            throws MojoExecutionException {
        return runScenarios(config, invariants, verifiedFingerprints, null);
    }

    /**
     * As {@link #runScenarios(HarnessConfig, Set, Map)}; the runs take the answers the integrity check has already
     * read from {@code kept} (may be {@code null}) instead of reading those cassettes again.
     */
    List<ScenarioReport> runScenarios(HarnessConfig config, Set<Invariant> invariants,
            Map<String, String> verifiedFingerprints, KeptAnswers kept)
            throws MojoExecutionException {
        return runScenarios(config, invariants, verifiedFingerprints, kept, UnaryOperator.identity());
    }

    /**
     * As {@link #runScenarios(HarnessConfig, Set, Map, KeptAnswers)}; each scenario's report is kept as {@code keep}
     * makes it when the scenario finishes, so that a goal keeps of every scenario only what its outputs need.
     */
    List<ScenarioReport> runScenarios(HarnessConfig config, Set<Invariant> invariants,
            Map<String, String> verifiedFingerprints, KeptAnswers kept, UnaryOperator<ScenarioReport> keep)
            throws MojoExecutionException {
        if (config.scenarios().isEmpty()) {
            getLog().warn(ScenarioScope.noScenarios(config, goal()));
            return List.of();
        }
        if (runs < 2 && invariants.contains(Invariant.DETERMINISM)) {
            throw new MojoExecutionException("resilience.runs is " + runs + "; determinism needs at least 2 runs");
        }
        List<String> classpath;
        try {
            classpath = project.getTestClasspathElements();
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("the project's test classpath is not resolved: " + e.getMessage(), e);
        }
        ScenarioLauncher.Outcome outcome = ScenarioLauncher.run(config, invariants, runs, classpath,
                verifiedFingerprints, kept, keep);
        if (!outcome.setupErrors().isEmpty()) {
            throw new MojoExecutionException(String.join(System.lineSeparator(), outcome.setupErrors()));
        }
        int ran = outcome.scenarios().size();
        getLog().info("Ran " + ran + (ran == 1 ? " scenario" : " scenarios") + " of " + config.file().getFileName()
                + " with loop " + config.loop() + (invariants.contains(Invariant.DETERMINISM)
                        ? ", comparing " + runs + " runs of each for determinism" : ""));
        return outcome.scenarios();
    }

    /** Every violation of the scenarios, scenario by scenario. */
    protected static List<Violation> violations(List<ScenarioReport> reports) {
        List<Violation> all = new ArrayList<>();
        reports.forEach(r -> all.addAll(r.violations()));
        return all;
    }
}
