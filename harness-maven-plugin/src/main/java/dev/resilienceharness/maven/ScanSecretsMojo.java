package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.pipeline.CassetteRun;
import dev.resilienceharness.run.RunException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Scans every cassette for secrets and personal data as JSON — escapes decoded, JSON inside strings, URLs and
 * Basic credentials looked into — and writes {@code secrets.sarif}. Findings show a masked value only.
 */
@Mojo(name = "scan-secrets", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class ScanSecretsMojo extends AbstractResilienceMojo {

    /** Skips this goal only. */
    @Parameter(property = "resilience.scan-secrets.skip", defaultValue = "false")
    private boolean skipGoal;

    /** Fails the build on a finding; with false, findings are logged as warnings. */
    @Parameter(property = "resilience.failOnViolation", defaultValue = "true")
    private boolean failOnViolation;

    /**
     * Accepts every current finding by writing its fingerprint to the baseline file
     * ({@code redaction.baseline}, or {@code secrets-baseline.json} beside the yaml), then passes.
     */
    @Parameter(property = "resilience.updateBaseline", defaultValue = "false")
    private boolean updateBaseline;

    @Override
    protected String goal() {
        return "scan-secrets";
    }

    @Override
    protected boolean goalSkipped() {
        return skipGoal;
    }

    @Override
    protected void run(HarnessConfig config) throws RunException {
        CassetteRun.scanSecrets(log(), config, part(), outputDirectory.toPath(), project.getBasedir().toPath(),
                updateBaseline, failOnViolation, shard);
    }

    @Override
    protected boolean shards() {
        return true;
    }
}
