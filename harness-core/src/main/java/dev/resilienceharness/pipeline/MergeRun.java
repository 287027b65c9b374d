package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.report.AggregateReport;
import dev.resilienceharness.report.MergedReports;
import dev.resilienceharness.report.ReportJson;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.secrets.GitleaksRules;
import dev.resilienceharness.shard.ShardFolders;
import dev.resilienceharness.shard.ShardMerge;
import dev.resilienceharness.shard.ShardMessages;
import dev.resilienceharness.shard.ShardProblems;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The goals that make one report of several: {@code merge}, of the N shards of a check, and
 * {@code report-aggregate}, of a reactor's modules. Neither reads a yaml: the reports already written are all they
 * need, and the team's gitleaks rules ({@code .gitleaks.toml} in the project's folder, where gitleaks looks for it),
 * whose ids the reports' secret findings may carry.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class MergeRun {

    /**
     * A module of the reactor.
     *
     * @param name       its artifact id
     * @param baseDir    its folder
     * @param buildDir   its build directory, under which its report is
     * @param hasYaml    whether it has a {@code resilience.yaml}, so that a missing report is worth a warning
     */
    public record Module(String name, Path baseDir, Path buildDir, boolean hasYaml) {
    }

    private MergeRun() {
    }

    /**
     * Merges the shards' output folders that {@code from} names (comma-separated globs, relative to {@code base}) into
     * one set of reports in {@code out}.
     */
    public static void merge(RunLog log, Path base, String from, Path out, boolean failOnViolation)
            throws RunError, RunFailure {
        RunReport merged;
        List<Path> folders;
        try {
            folders = ShardFolders.resolve(base, from);
            merged = ShardMerge.merge(folders);
        } catch (ShardProblems e) {
            e.problems().forEach(log::error);
            throw new RunError("resilience:merge: cannot merge the shards: " + e.problems().size()
                    + (e.problems().size() == 1 ? " problem" : " problems") + " above");
        }
        log.info(ShardMessages.merged(folders.size(), merged.scenarios().size(), merged.cassettes().checked()));
        Set<String> teamRules = teamRules(List.of(base));
        ReportWriter.Written written;
        try {
            written = MergedReports.write(merged, base, out, teamRules);
        } catch (IOException e) {
            throw new RunError(out + ": cannot write the reports: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new RunError("a shard's report.json is damaged: " + e.getMessage() + "; run the shard again");
        }
        log.info("Report: " + written.html().toUri());
        Verdict.deliver(log, "merge", MergedReports.violations(merged, base, teamRules), failOnViolation,
                "see " + written.html());
    }

    /** One report in {@code out} over the reports of {@code modules}, naming files relative to {@code base}. */
    public static void aggregate(RunLog log, List<Module> modules, Path base, Path out, boolean failOnViolation)
            throws RunError, RunFailure {
        List<AggregateReport.Module> found = new ArrayList<>();
        for (Module module : modules) {
            Path json = module.buildDir().resolve("resilience").resolve(ReportWriter.JSON);
            if (!Files.isRegularFile(json)) {
                if (module.hasYaml()) {
                    log.warn(module.name() + ": no " + json + "; bind the report goal in the module"
                            + " (or run mvn verify resilience:report resilience:report-aggregate) to include it");
                }
                continue;
            }
            try {
                found.add(new AggregateReport.Module(module.name(), module.baseDir(),
                        ReportJson.fromJson(Json.readTree(Files.readAllBytes(json)))));
            } catch (IOException | RuntimeException e) {
                throw new RunError(json + ": cannot be read: " + e.getMessage()
                        + "; run the module's report goal again");
            }
        }
        RunReport all = AggregateReport.of(found, base);
        log.info("Aggregated " + found.size() + (found.size() == 1 ? " module: " : " modules: ")
                + all.scenarios().size() + " scenarios, " + all.cassettes().checked() + " cassettes");
        List<Path> folders = new ArrayList<>(List.of(base));
        modules.forEach(m -> folders.add(m.baseDir()));
        Set<String> teamRules = teamRules(folders);
        ReportWriter.Written written;
        try {
            written = MergedReports.write(all, base, out, teamRules);
        } catch (IOException e) {
            throw new RunError(out + ": cannot write the reports: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new RunError("a module's report.json is damaged: " + e.getMessage() + "; run its report goal again");
        }
        log.info("Report: " + written.html().toUri());
        Verdict.deliver(log, "report-aggregate", MergedReports.violations(all, base, teamRules), failOnViolation,
                "see " + written.html());
    }

    /** The ids of the team's rules in the {@code .gitleaks.toml} of each of {@code folders} that has one. */
    private static Set<String> teamRules(List<Path> folders) throws RunError {
        Set<String> ids = new LinkedHashSet<>();
        for (Path folder : folders) {
            Path file = folder.resolve(GitleaksRules.FILE_NAME);
            if (Files.isRegularFile(file)) {
                try {
                    ids.addAll(GitleaksRules.read(file).ids());
                } catch (IOException e) {
                    throw new RunError(e.getMessage(), e);
                }
            }
        }
        return ids;
    }
}
