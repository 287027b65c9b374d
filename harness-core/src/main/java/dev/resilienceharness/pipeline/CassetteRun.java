package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.secrets.Baseline;
import dev.resilienceharness.secrets.SarifWriter;
import dev.resilienceharness.shard.Shard;
import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/** The goals that look at the cassettes alone: {@code verify-cassettes} and {@code scan-secrets}. */
@API(status = INTERNAL, since = "0.1.0")
public final class CassetteRun {

    private CassetteRun() {
    }

    /**
     * Checks the cassette folder: every file parses, is named by its request's fingerprint, holds no volatile field,
     * and every scenario op has a cassette; then the stale cassettes and the verdict.
     */
    public static void verify(RunLog log, HarnessConfig config, Shard shard, boolean failOnOrphans,
            boolean failOnViolation, boolean failOnStale) throws RunError, RunFailure {
        CassetteIntegrity.Report report;
        try {
            report = CassetteIntegrity.check(config, failOnOrphans && ScenarioScope.looksForOrphans(config),
                    (file, bytes) -> { }, shard::ownsFile);
        } catch (IOException e) {
            throw new RunError(config.cassettes() + ": cannot list the cassette folder: " + e.getMessage(), e);
        }
        if (ScenarioScope.looksForOrphans(config)) {
            report.warnings().forEach(log::warn);
        } else {
            log.info(ScenarioScope.cassettesOnTheirOwn(config));
            ScenarioScope.withoutOrphans(report.warnings()).forEach(log::warn);
        }
        log.info("Checked " + report.checked() + " cassettes in " + config.cassettes());
        SecretsPass.logShard(log, config, shard);
        int stale = StaleCassettes.report(config, failOnStale, log);
        Verdict.deliver(log, "verify-cassettes", report.violations(), failOnViolation, null);
        StaleCassettes.fail("verify-cassettes", stale);
    }

    /**
     * Scans the cassettes for secrets and writes {@code secrets.sarif} to {@code out}, naming files relative to
     * {@code base}; with {@code updateBaseline}, accepts every finding into the baseline file instead of failing.
     */
    public static void scanSecrets(RunLog log, HarnessConfig config, Shard shard, Path out, Path base,
            boolean updateBaseline, boolean failOnViolation, String shardOption) throws RunError, RunFailure {
        if (updateBaseline && !shard.whole()) {
            // A shard sees a part of the findings: its baseline would drop every other shard's.
            throw new RunError("resilience.updateBaseline writes the fingerprint of every finding; run it"
                    + " without -Dresilience.shard=" + shardOption);
        }
        SecretsInCassettes.Report report = SecretsPass.scan(log, config, shard, true);
        Path sarif = out.resolve("secrets.sarif");
        try {
            new SarifWriter(base).write(report.findings(), sarif);
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
            log.info("Accepted " + report.findings().size() + " findings in " + file
                    + (config.redaction().baseline() == null ? "; set redaction.baseline to it in "
                            + config.file().getFileName() : ""));
            return;
        }
        Verdict.deliver(log, "scan-secrets", report.violations(), failOnViolation, "SARIF: " + sarif);
    }
}
