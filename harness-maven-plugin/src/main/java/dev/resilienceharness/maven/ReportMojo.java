package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.pipeline.ReportRun;
import dev.resilienceharness.run.RunException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Checks every invariant and writes the reports to {@code target/resilience/}: {@code report.html} (one
 * self-contained page), {@code report.json}, {@code junit/TEST-resilience.xml} and {@code secrets.sarif}. It
 * includes the last {@code explore.json} found there. Fails only with {@code -Dresilience.failOnViolation=true}.
 */
@Mojo(name = "report", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public class ReportMojo extends AbstractScenarioMojo {

    /** Skips this goal only. */
    @Parameter(property = "resilience.report.skip", defaultValue = "false")
    private boolean skipGoal;

    /** Fails the build on a violation once the reports are written; by default the report goal only reports. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "false")
    private boolean failOnViolation;

    /** Treats cassettes that no scenario op uses as violations instead of warnings. */
    @Parameter(property = "resilience.failOnOrphans", defaultValue = "false")
    private boolean failOnOrphans;

    @Override
    protected String goal() {
        return "report";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected void run(HarnessConfig config) throws RunException {
        ReportRun.run(log(), new ReportRun.Options(outputDirectory.toPath(), project.getBasedir().toPath(), part(), runs,
                failOnOrphans, failOnViolation), config, () -> SharedPass.run(this, config, failOnOrphans));
    }
}
