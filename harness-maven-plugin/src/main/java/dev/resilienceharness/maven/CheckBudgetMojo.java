package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.pipeline.Verdict;
import dev.resilienceharness.run.RunException;
import java.util.EnumSet;
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
        var reports = runScenarios(config, EnumSet.of(Invariant.BUDGET, Invariant.PARTIAL_WORK,
                Invariant.BOUNDED_WAIT, Invariant.EXPECTATIONS));
        Verdict.deliver(log(), goal(), violations(reports), failOnViolation, Verdict.REPORT_HINT);
    }
}
