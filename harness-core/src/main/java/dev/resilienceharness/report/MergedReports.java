package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.invariant.SecretsInCassettes;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.secrets.Finding;
import dev.resilienceharness.secrets.Rule;
import dev.resilienceharness.secrets.SarifWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Writes a report put together from other reports (shards merged, or a reactor's modules) in every format a single
 * run writes: {@code report.html}, {@code report.json}, the JUnit XML and {@code secrets.sarif}, the last from the
 * findings the reports carry. A finding's rule is a built-in rule or one of the team's own rules
 * ({@code .gitleaks.toml}) the caller names; any other id is a damaged report.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class MergedReports {

    /** The SARIF file, beside the other reports. */
    public static final String SARIF = "secrets.sarif";

    private MergedReports() {
    }

    /**
     * Writes the four files into {@code outputDir}.
     *
     * @param base the folder finding files are relative to, as in the reports read
     * @throws IOException when a file cannot be written; files already written stay complete
     */
    public static ReportWriter.Written write(RunReport report, Path base, Path outputDir) throws IOException {
        return write(report, base, outputDir, Set.of());
    }

    /**
     * Writes the four files into {@code outputDir}, where findings may also be of the team's rules
     * {@code teamRules} (their ids), which the SARIF file then describes after the built-in ones.
     *
     * @param base the folder finding files are relative to, as in the reports read
     * @throws IOException when a file cannot be written; files already written stay complete
     * @throws IllegalArgumentException when a finding names a rule that is neither built in nor in {@code teamRules}
     */
    public static ReportWriter.Written write(RunReport report, Path base, Path outputDir, Set<String> teamRules)
            throws IOException {
        // A merge has no configuration: whether a scenario ran a tool decides whether side_effects was checked.
        ReportWriter.Written written = ReportWriter.writeAll(report,
                ReportWriter.checked(ReportWriter.ranTools(report)), outputDir);
        new SarifWriter(base).write(findings(report.secrets().findings(), base, teamRules), outputDir.resolve(SARIF));
        return written;
    }

    /**
     * Every violation of {@code report}, as the goal that wrote it logged them: cassettes, then scenarios, then one per
     * secret finding, its file resolved against {@code base}.
     */
    public static List<Violation> violations(RunReport report, Path base) {
        return violations(report, base, Set.of());
    }

    /** {@link #violations(RunReport, Path)} of a report whose findings may be of the team's rules {@code teamRules}. */
    public static List<Violation> violations(RunReport report, Path base, Set<String> teamRules) {
        List<Violation> all = new ArrayList<>(report.cassettes().violations());
        report.scenarios().forEach(s -> all.addAll(s.violations()));
        findings(report.secrets().findings(), base, teamRules).forEach(f -> all.add(SecretsInCassettes.violation(f)));
        return all;
    }

    /**
     * The findings of {@code rows}, their files resolved against {@code base}.
     *
     * @throws IllegalArgumentException when a row names no known rule or has no finding's shape
     */
    static List<Finding> findings(List<SecretFindingRow> rows, Path base) {
        return findings(rows, base, Set.of());
    }

    /**
     * The findings of {@code rows}, their files resolved against {@code base}; a row may name a built-in rule or one
     * of {@code teamRules}, so that a hand-edited report with a mistyped id is still caught.
     *
     * @throws IllegalArgumentException when a row names no known rule or has no finding's shape
     */
    static List<Finding> findings(List<SecretFindingRow> rows, Path base, Set<String> teamRules) {
        List<Finding> findings = new ArrayList<>();
        for (SecretFindingRow row : rows) {
            Rule rule = Rule.byId(row.rule());
            if (rule == null && !teamRules.contains(row.rule())) {
                throw new IllegalArgumentException(row.location() + ": no secret rule has the id '" + row.rule() + "'");
            }
            findings.add(new Finding(base.resolve(row.file()), row.line(), row.column(), row.jsonPath(), rule,
                    row.masked(), row.fingerprint(), row.rule()));
        }
        return findings;
    }
}
