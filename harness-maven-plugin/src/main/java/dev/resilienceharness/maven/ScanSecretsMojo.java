package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.pipeline.SecretsPass;
import dev.resilienceharness.pipeline.Verdict;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunException;
import dev.resilienceharness.secrets.Baseline;
import dev.resilienceharness.secrets.SarifWriter;
import java.io.IOException;
import java.nio.file.Path;
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
        if (updateBaseline && !part().whole()) {
            // A shard sees a part of the findings: its baseline would drop every other shard's.
            throw new RunError("resilience.updateBaseline writes the fingerprint of every finding; run it"
                    + " without -Dresilience.shard=" + shard);
        }
        SecretsInCassettes.Report report = SecretsPass.scan(log(), config, part(), true);
        Path sarif = outputDirectory.toPath().resolve("secrets.sarif");
        try {
            new SarifWriter(project.getBasedir().toPath()).write(report.findings(), sarif);
        } catch (IOException e) {
            throw new RunError(sarif + ": cannot write: " + e.getMessage(), e);
        }
        if (updateBaseline) {
            Path file = config.redaction().baseline() != null ? config.redaction().baseline()
                    : config.file().resolveSibling("secrets-baseline.json");
            try {
                Baseline.of(report.findings()).write(file);
            } catch (IOException e) {
                throw new RunError(file + ": cannot write the baseline: " + e.getMessage(), e);
            }
            getLog().info("Accepted " + report.findings().size() + " findings in " + file
                    + (config.redaction().baseline() == null ? "; set redaction.baseline to it in "
                            + config.file().getFileName() : ""));
            return;
        }
        Verdict.deliver(log(), goal(), report.violations(), failOnViolation, "SARIF: " + sarif);
    }

    @Override
    protected boolean shards() {
        return true;
    }
}
