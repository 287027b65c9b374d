package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.invariant.Violation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One report over the modules of a multi-module build, as jacoco's {@code report-aggregate} makes one coverage page:
 * every module's scenarios, named {@code <module>/<scenario>}, and every module's cassette and secret findings, the
 * finding files relative to the build's root folder.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class AggregateReport {

    /**
     * One module's report.
     *
     * @param name    how the page names the module (its artifactId)
     * @param basedir the module's folder, which its finding files are relative to
     * @param report  its {@code report.json}
     */
    public record Module(String name, Path basedir, RunReport report) {
    }

    private AggregateReport() {
    }

    /** The modules' reports as one, in the order given; finding files relative to {@code root}. */
    public static RunReport of(List<Module> modules, Path root) {
        List<ScenarioReport> scenarios = new ArrayList<>();
        List<Violation> cassetteViolations = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<SecretFindingRow> findings = new ArrayList<>();
        List<String> counterexamples = new ArrayList<>();
        int checked = 0;
        int scanned = 0;
        int plans = 0;
        Path top = root.toAbsolutePath().normalize();
        for (Module m : modules) {
            RunReport r = m.report();
            for (ScenarioReport s : r.scenarios()) {
                scenarios.add(renamed(s, m.name() + "/" + s.name()));
            }
            checked += r.cassettes().checked();
            cassetteViolations.addAll(r.cassettes().violations());
            r.cassettes().warnings().forEach(w -> warnings.add(m.name() + ": " + w));
            scanned += r.secrets().files();
            for (SecretFindingRow f : r.secrets().findings()) {
                Path file = m.basedir().toAbsolutePath().normalize().resolve(f.file()).normalize();
                String shown = file.startsWith(top) ? top.relativize(file).toString().replace('\\', '/')
                        : file.toString();
                findings.add(new SecretFindingRow(shown, f.line(), f.column(), f.jsonPath(), f.rule(), f.masked(),
                        f.fingerprint()));
            }
            plans += r.exploration().plansExplored();
            r.exploration().counterexamples().forEach(c -> counterexamples.add(m.name() + ":\n" + c));
        }
        RunReport.Builder all = RunReport.builder().scenarios(scenarios).cassettes(checked, cassetteViolations,
                warnings).secrets(scanned, findings);
        if (plans > 0) {
            all.exploration(plans, counterexamples);
        }
        return all.build();
    }

    /** {@code s} under another name, its violations too. */
    private static ScenarioReport renamed(ScenarioReport s, String name) {
        List<Violation> violations = new ArrayList<>();
        for (Violation v : s.violations()) {
            violations.add(v.subject().equals(s.name()) ? new Violation(v.invariant(), name, v.op(), v.bound(),
                    v.actual(), v.message(), v.hint()) : v);
        }
        return new ScenarioReport(name, s.calls(), s.callBudget(), s.totalWaitMs(), s.waitBoundMs(), s.outcomes(),
                violations, s.timeline());
    }
}
