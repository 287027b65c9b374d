package dev.resilienceharness.maven;

import dev.resilienceharness.pipeline.ScenarioRunner;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.scenario.StallBound;
import java.util.List;
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
     * (see the docs' "What every adapter does", "A loop that stalls fails its run"). Unset: one minute.
     */
    @Parameter(property = StallBound.PROPERTY)
    protected String stallTimeout;

    /** How many times each scenario runs for the determinism check (at least 2). */
    @Parameter(property = "resilience.runs", defaultValue = "2")
    protected int runs;

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
}
