package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.pipeline.CassetteRun;
import dev.resilienceharness.run.RunException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Checks the cassette folder: every file parses, is named by its request's fingerprint, holds no volatile
 * field, and every scenario op has a cassette. Orphan cassettes are warned about.
 */
@Mojo(name = "verify-cassettes", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class VerifyCassettesMojo extends AbstractResilienceMojo {

    /** Skips this goal only. */
    @Parameter(property = "resilience.verify-cassettes.skip", defaultValue = "false")
    private boolean skipGoal;

    /** Fails the build on a violation; with false, violations are logged as warnings. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "true")
    private boolean failOnViolation;

    /** Treats cassettes that no scenario op uses as violations instead of warnings. */
    @Parameter(property = "resilience.failOnOrphans", defaultValue = "false")
    private boolean failOnOrphans;

    /** Fails the build when a cassette is older than {@code drift.max_age}; without it, that is a warning. */
    @Parameter(property = "resilience.failOnStale", defaultValue = "false")
    private boolean failOnStale;

    @Override
    protected String goal() {
        return "verify-cassettes";
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
        CassetteRun.verify(log(), config, part(), failOnOrphans, failOnViolation, failOnStale);
    }
}
