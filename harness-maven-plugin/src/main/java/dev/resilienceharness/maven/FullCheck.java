package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CassetteFolderPass;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.scenario.Rehearsal;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;

/**
 * The one pass behind {@code check} and {@code report}: cassettes, then scenarios, then secrets, with the cassette
 * folder read once for the cassettes and the secrets.
 */
final class FullCheck {

    /**
     * Everything one pass found.
     *
     * @param cassettes the cassette integrity report
     * @param scenarios one report per scenario, empty when missing cassettes kept them from running
     * @param secrets   the secret scan
     */
    record Result(CassetteIntegrity.Report cassettes, List<ScenarioReport> scenarios,
            SecretsInCassettes.Report secrets) {

        /** Every violation: cassettes, then scenarios, then secrets. */
        List<Violation> violations() {
            List<Violation> all = new ArrayList<>(cassettes.violations());
            scenarios.forEach(s -> all.addAll(s.violations()));
            all.addAll(secrets.violations());
            return all;
        }
    }

    private FullCheck() {
    }

    static Result run(AbstractScenarioMojo mojo, HarnessConfig config, boolean failOnOrphans)
            throws MojoExecutionException {
        // The secret scan reads the same files as the integrity check, so both share one reading of the folder.
        // A scan that cannot start (a baseline that will not read) fails the goal where the scan used to run: last.
        SecretsInCassettes.Scan secrets = null;
        MojoExecutionException secretsError = null;
        try {
            secrets = ScanSecretsMojo.begin(config);
        } catch (MojoExecutionException e) {
            secretsError = e;
        }
        CassetteIntegrity.Check integrity = CassetteIntegrity.Check.of(config, failOnOrphans);
        List<Path> files;
        try {
            files = CassetteFolderPass.files(config);
        } catch (IOException e) {
            throw new MojoExecutionException(config.cassettes() + ": cannot list the cassette folder: "
                    + e.getMessage(), e);
        }
        if (secrets == null) {
            CassetteFolderPass.run(config, files, integrity);
        } else {
            CassetteFolderPass.run(config, files, integrity, secrets);
        }
        CassetteIntegrity.Report cassettes = integrity.report(files);
        cassettes.warnings().forEach(mojo.getLog()::warn);
        mojo.getLog().info("Checked " + cassettes.checked() + " cassettes in " + config.cassettes());
        boolean missing = cassettes.violations().stream()
                .anyMatch(v -> v.op() != null && v.subject().equals(config.file().toString()));
        List<ScenarioReport> scenarios = List.of();
        if (missing) {
            mojo.getLog().warn("Scenarios were not run: some ops have no cassette (listed below)");
        } else {
            // Every op's cassette was just found and read, so the runs read each one only when they need it.
            scenarios = mojo.runScenarios(config, Rehearsal.RUN_INVARIANTS, true);
        }
        if (secretsError != null) {
            throw secretsError;
        }
        return new Result(cassettes, scenarios, ScanSecretsMojo.logged(mojo, secrets.report(files.size())));
    }
}
