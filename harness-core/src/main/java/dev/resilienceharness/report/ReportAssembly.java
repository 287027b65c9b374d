package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.explore.ExploreReport;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.secrets.SarifWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Assembles the reports of one check's pass in the output directory: {@code report.html} (with the last
 * {@code explore.json} and {@code drift.json} found there), {@code report.json}, the JUnit XML and
 * {@code secrets.sarif}.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ReportAssembly {

    /** The file in the output directory whose counterexamples the report includes. */
    public static final String EXPLORED = "explore.json";

    private ReportAssembly() {
    }

    /**
     * Writes the reports of a pass over {@code config} to {@code out}, naming files relative to {@code base} (the
     * project's folder); an {@code explore.json} that cannot be read is left out with a warning.
     */
    public static ReportWriter.Written write(RunLog log, HarnessConfig config, Path out, Path base,
            List<ScenarioReport> scenarios, CassetteIntegrity.Report cassettes, SecretsInCassettes.Report secrets)
            throws RunError {
        List<SecretFindingRow> rows = secrets.findings().stream().map(f -> SecretFindingRow.of(f, base)).toList();
        RunReport.Builder report = RunReport.builder()
                .scenarios(scenarios)
                .cassettes(cassettes)
                .secrets(secrets.files(), rows);
        Path explored = out.resolve(EXPLORED);
        try {
            ExploreReport.Saved saved = ExploreReport.read(explored);
            if (saved != null) {
                report.exploration(saved.plans(), saved.counterexamples());
            }
        } catch (IOException e) {
            log.warn(explored + ": not included in the report, it cannot be read: " + e.getMessage());
        }
        try {
            RunReport built = report.build();
            ReportWriter.Written written = ReportWriter.writeAll(built,
                    ReportWriter.checked(!config.tools().isEmpty() || ReportWriter.ranTools(built)), out,
                    DriftSection.html(DriftSection.read(out), LatencyDistribution.of(config)));
            new SarifWriter(base).write(secrets.findings(), out.resolve("secrets.sarif"));
            return written;
        } catch (IOException e) {
            throw new RunError(out + ": cannot write the reports: " + e.getMessage(), e);
        }
    }
}
