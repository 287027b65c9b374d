package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.pipeline.ScenarioRunner;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.scenario.StallBound;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
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

    /**
     * How long a run of a team's loop may make no call and no wait, in real time, before it fails under bounded_wait
     * instead of hanging the build: a duration such as {@code 30s} or {@code 5m}, or {@code 0} to turn the guard off
     * (see the README, "A loop that stalls fails its run"). Unset: one minute.
     */
    @Parameter(property = StallBound.PROPERTY)
    protected String stallTimeout;

    /** How many times each scenario runs for the determinism check (at least 2). */
    @Parameter(property = "resilience.runs", defaultValue = "2")
    protected int runs;

    /** Runs the scenarios for {@code invariants}; setup problems (missing cassette, unusable loop) fail the goal. */
    List<ScenarioReport> runScenarios(HarnessConfig config, Set<Invariant> invariants)
            throws RunError {
        ScenarioRunner runner = runner();
        if (config.scenarios().isEmpty()) {
            return runner.run(config, invariants, null, null, UnaryOperator.identity());
        }
        HarnessConfig mine = runner.shardOf(config);
        return mine.scenarios().isEmpty() ? List.of()
                : runner.run(mine, invariants, null, null, UnaryOperator.identity());
    }

    /** This goal's log, shard, runs and test classpath, for a pass. */
    ScenarioRunner runner() throws RunError {
        return new ScenarioRunner(log(), goal(), part(), runs, ScenarioRunner.stallBound(stallTimeout),
                this::testClasspath);
    }

    /** The project's test classpath, on which the team's loop is. */
    List<String> testClasspath() throws RunError {
        try {
            return project.getTestClasspathElements();
        } catch (DependencyResolutionRequiredException e) {
            throw new RunError("the project's test classpath is not resolved: " + e.getMessage(), e);
        }
    }

    /** Every violation of the scenarios, scenario by scenario. */
    protected static List<Violation> violations(List<ScenarioReport> reports) {
        List<Violation> all = new ArrayList<>();
        reports.forEach(r -> all.addAll(r.violations()));
        return all;
    }
}
