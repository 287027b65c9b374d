package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.pipeline.ScenarioChecks;
import dev.resilienceharness.run.RunException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/** Runs every scenario once and checks call budget, partial work survival, bounded waiting and expectations. */
@Mojo(name = "check-budget", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public class CheckBudgetMojo extends AbstractScenarioMojo {

    /** Skips this goal only. */
    @Parameter(property = "resilience.check-budget.skip", defaultValue = "false")
    private boolean skipGoal;

    /** Fails the build on a violation; with false, violations are logged as warnings. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "true")
    private boolean failOnViolation;

    @Override
    protected String goal() {
        return "check-budget";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected void run(HarnessConfig config) throws RunException {
        ScenarioChecks.check(runner(), config, ScenarioChecks.BUDGET, failOnViolation);
    }
}
