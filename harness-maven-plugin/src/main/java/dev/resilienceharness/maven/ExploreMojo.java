package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.pipeline.ExploreRun;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunException;
import dev.resilienceharness.scenario.StallBound;
import java.util.List;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Searches fault plans for each scenario's ops and prints the smallest plan that breaks an invariant, as a scenario
 * to paste into {@code resilience.yaml}; writes {@code explore.json}. Reports only, unless failOnViolation is set.
 */
@Mojo(name = "explore", threadSafe = true, requiresDependencyResolution = ResolutionScope.TEST)
public class ExploreMojo extends AbstractResilienceMojo {

    /**
     * Runs the scenarios with this loop instead of the yaml's {@code loop:}: {@code builtin} or the binary class name
     * of a loop on the project's test classpath, such as {@code com.acme.agent.MyLoop}. One yaml then rehearses
     * several loops: {@code mvn verify -Dresilience.loop=com.acme.agent.OtherLoop}.
     */
    @Parameter(property = "resilience.loop")
    private String loop;

    @Override
    protected String loopOverride() {
        return loop;
    }

    /** As for the goals that check scenarios: how long a run may make no call and no wait (default one minute). */
    @Parameter(property = StallBound.PROPERTY)
    private String stallTimeout;

    /** Explores only the scenario of this name; when not set, every scenario (once per distinct ops and policy). */
    @Parameter(property = "resilience.explore.scenario")
    private String scenario;

    /** The most fault plans to run per scenario (the runs that shrink a counterexample are not counted). */
    @Parameter(property = "resilience.explore.maxPlans", defaultValue = "10000")
    private long maxPlans;

    /**
     * The most wall-clock time for the whole search, written like a yaml duration (500ms, 60s, 2m) and shared out
     * evenly over the scenarios still to explore. A search that ends by time may get further on a faster machine.
     */
    @Parameter(property = "resilience.explore.timeLimit", defaultValue = "60s")
    private String timeLimit;

    /** Seeds the random plans: the same seed finds the same counterexamples whenever maxPlans ends the search. */
    @Parameter(property = "resilience.explore.seed", defaultValue = "1")
    private long seed;

    /**
     * Also searches these provider limits for each scenario, comma-separated: {@code requests_per_minute} (the highest
     * rate the loop still breaks under) and {@code token_quota} (the smallest quota it breaks under). None by default.
     */
    @Parameter(property = "resilience.explore.limits", defaultValue = "")
    private String limits;

    /** Fails the build when a counterexample is found; by default they are only reported. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "false")
    private boolean failOnViolation;

    /** Skips this goal only. */
    @Parameter(property = "resilience.explore.skip", defaultValue = "false")
    private boolean skipGoal;

    @Override
    protected String goal() {
        return "explore";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected boolean shards() {
        return true;
    }

    @Override
    protected void run(HarnessConfig config) throws RunException {
        ExploreRun.run(log(), new ExploreRun.Options(scenario, maxPlans, timeLimit, seed, limits, stallTimeout,
                failOnViolation, part(), this.config.getName(), outputDirectory.toPath()), config, this::testClasspath);
    }

    /** The project's test classpath, on which the team's loop is. */
    private List<String> testClasspath() throws RunError {
        try {
            return project.getTestClasspathElements();
        } catch (DependencyResolutionRequiredException e) {
            throw new RunError("the project's test classpath is not resolved: " + e.getMessage(), e);
        }
    }
}
