package dev.resilienceharness.maven;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.shard.ShardMessages;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.secrets.Baseline;
import dev.resilienceharness.secrets.SarifWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.plugin.MojoFailureException;
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
    protected void run(HarnessConfig config) throws MojoExecutionException, MojoFailureException {
        if (updateBaseline && !part().whole()) {
            // A shard sees a part of the findings: its baseline would drop every other shard's.
            throw new MojoExecutionException("resilience.updateBaseline writes the fingerprint of every finding; run it"
                    + " without -Dresilience.shard=" + shard);
        }
        SecretsInCassettes.Report report = scan(this, config, true);
        Path sarif = outputDirectory.toPath().resolve("secrets.sarif");
        try {
            new SarifWriter(project.getBasedir().toPath()).write(report.findings(), sarif);
        } catch (IOException e) {
            throw new MojoExecutionException(sarif + ": cannot write: " + e.getMessage(), e);
        }
        if (updateBaseline) {
            Path file = config.redaction().baseline() != null ? config.redaction().baseline()
                    : config.file().resolveSibling("secrets-baseline.json");
            try {
                Baseline.of(report.findings()).write(file);
            } catch (IOException e) {
                throw new MojoExecutionException(file + ": cannot write the baseline: " + e.getMessage(), e);
            }
            getLog().info("Accepted " + report.findings().size() + " findings in " + file
                    + (config.redaction().baseline() == null ? "; set redaction.baseline to it in "
                            + config.file().getFileName() : ""));
            return;
        }
        Verdict.deliver(getLog(), goal(), report.violations(), failOnViolation, "SARIF: " + sarif);
    }

    @Override
    protected boolean shards() {
        return true;
    }

    /** Scans the cassettes (of the goal's shard), turning a bad allow-list or baseline into an error naming it. */
    static SecretsInCassettes.Report scan(AbstractResilienceMojo mojo, HarnessConfig config, boolean reportUnreadable)
            throws MojoExecutionException {
        Shard shard = mojo.part();
        SecretsInCassettes.Report report = logged(mojo.getLog(), translated(config,
                () -> SecretsInCassettes.scan(config, reportUnreadable, shard::ownsFile)));
        logShard(mojo.getLog(), config, shard);
        return report;
    }

    /** Says which of the folder's cassettes a shard looks at; says nothing for the whole work. */
    static void logShard(Log log, HarnessConfig config, Shard shard)
            throws MojoExecutionException {
        if (shard.whole()) {
            return;
        }
        List<Path> all = translated(config, () -> CassetteStore.replaying(config.cassettes(),
                VolatilePaths.of(config.volatilePaths())).files());
        int mine = (int) all.stream().filter(shard::ownsFile).count();
        log.info(ShardMessages.cassettes(shard, mine, all.size()));
    }

    /** Starts a scan that another pass feeds, with the errors of {@link #scan}. */
    static SecretsInCassettes.Scan start(HarnessConfig config) throws MojoExecutionException {
        return translated(config, () -> SecretsInCassettes.start(config));
    }

    /** Something that reads the cassettes or the redaction settings. */
    private interface Reading<T> {
        T get() throws IOException;
    }

    private static <T> T translated(HarnessConfig config, Reading<T> reading) throws MojoExecutionException {
        try {
            return reading.get();
        } catch (IOException e) {
            throw new MojoExecutionException("cannot scan " + config.cassettes() + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(config.file() + ": " + e.getMessage());
        }
    }

    /** Logs how many files were scanned and what was found. */
    static SecretsInCassettes.Report logged(Log log, SecretsInCassettes.Report report) {
        log.info("Scanned " + report.files() + " cassettes for secrets: " + report.findings().size()
                + (report.findings().size() == 1 ? " finding" : " findings"));
        return report;
    }

}
