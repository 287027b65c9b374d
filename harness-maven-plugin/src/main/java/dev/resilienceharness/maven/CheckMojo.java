package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Checks every invariant in one pass: cassette integrity, then call budget, determinism, partial work, bounded
 * waiting and expectations for every scenario, then secrets in cassettes.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public class CheckMojo extends AbstractScenarioMojo {

    /** Skips this goal only. */
    @Parameter(property = "resilience.check.skip", defaultValue = "false")
    private boolean skipGoal;

    /** Fails the build on a violation; with false, violations are logged as warnings. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "true")
    private boolean failOnViolation;

    /** Treats cassettes that no scenario op uses as violations instead of warnings. */
    @Parameter(property = "resilience.failOnOrphans", defaultValue = "false")
    private boolean failOnOrphans;

    @Override
    protected String goal() {
        return "check";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected void run(HarnessConfig config) throws MojoExecutionException, MojoFailureException {
        FullCheck.Result result = FullCheck.run(this, config, failOnOrphans);
        List<dev.resilienceharness.invariant.Violation> all = new ArrayList<>(result.violations());
        Verdict.deliver(getLog(), goal(), all, failOnViolation, "run mvn resilience:report for details");
    }
}
