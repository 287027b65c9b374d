package dev.resilienceharness.shard;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.cassette.CassetteMessages;
import dev.resilienceharness.files.BoundedFile;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.report.ReportJson;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.report.SecretFindingRow;
import dev.resilienceharness.scenario.BlockedScenarios;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;

/**
 * Merges the outputs of the N shards of one check into the report one unsharded run would have written: every
 * scenario in the yaml's order, the cassette and secret findings of every shard. It refuses shards that are missing,
 * given twice, split another way, or run on other inputs, naming the folders.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ShardMerge {

    /**
     * One shard's output.
     *
     * @param folder the folder it was read from
     * @param marker its {@code shard.json}
     * @param report its {@code report.json}
     */
    public record Part(Path folder, ShardMarker marker, RunReport report) {
    }

    private ShardMerge() {
    }

    /**
     * Reads every folder's marker and report, checks that together they are the N shards of one run, and merges them.
     *
     * @throws ShardProblems naming every folder that cannot be used and every shard missing or duplicated
     */
    public static RunReport merge(List<Path> folders) throws ShardProblems {
        List<Part> parts = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Path folder : folders) {
            try {
                parts.add(read(folder));
            } catch (ShardProblems e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new ShardProblems(problems);
        }
        return merge(parts, folders.size());
    }

    /** A shard's report is the run's report of its share: far below this even for thousands of scenarios. */
    static final long MAX_REPORT_BYTES = 256L << 20;

    /** One folder's output. */
    static Part read(Path folder) throws ShardProblems {
        Path markerFile = folder.resolve(ShardMarker.FILE);
        ShardMarker marker;
        try {
            marker = ShardMarker.read(markerFile);
        } catch (BoundedFile.Refused e) {
            throw new ShardProblems(List.of(e.missing() ? ShardMessages.noMarker(folder)
                    : ShardMessages.unreadable(markerFile, "it " + e.reason())));
        } catch (NoSuchFileException e) {
            throw new ShardProblems(List.of(ShardMessages.noMarker(folder)));
        } catch (IOException e) {
            throw new ShardProblems(List.of(ShardMessages.unreadable(markerFile, e.getMessage())));
        }
        Path reportFile = folder.resolve(ReportWriter.JSON);
        try {
            return new Part(folder, marker, ReportJson.fromJson(Json.readTree(
                    BoundedFile.read(reportFile, MAX_REPORT_BYTES))));
        } catch (BoundedFile.Refused e) {
            throw new ShardProblems(List.of(e.missing() ? ShardMessages.noReport(folder)
                    : ShardMessages.unreadable(reportFile, "it " + e.reason())));
        } catch (JacksonException e) {
            var at = e.getLocation();
            throw new ShardProblems(List.of(ShardMessages.notJson(reportFile, at == null ? 0 : at.getLineNr(),
                    at == null ? 0 : at.getColumnNr(), CassetteMessages.jsonProblem(e.getOriginalMessage()))));
        } catch (IOException | IllegalArgumentException | NullPointerException e) {
            throw new ShardProblems(List.of(ShardMessages.unreadable(reportFile, String.valueOf(e.getMessage()))));
        }
    }

    /** Checks that {@code parts}, read from {@code folders} folders, are each shard of one run once, and merges them. */
    static RunReport merge(List<Part> parts, int folders) throws ShardProblems {
        List<String> problems = new ArrayList<>();
        Part first = parts.get(0);
        Map<Integer, List<Path>> byIndex = new LinkedHashMap<>();
        for (Part p : parts) {
            Shard shard = p.marker().shard();
            if (shard.count() != first.marker().shard().count()) {
                problems.add(ShardMessages.otherCount(p.folder(), shard, first.folder(), first.marker().shard()));
                continue;
            }
            if (!p.marker().inputs().equals(first.marker().inputs())) {
                problems.add(ShardMessages.otherInputs(p.folder(), shard, p.marker().inputs(), first.folder(),
                        first.marker().shard(), first.marker().inputs()));
            }
            byIndex.computeIfAbsent(shard.index(), k -> new ArrayList<>()).add(p.folder());
        }
        int count = first.marker().shard().count();
        for (int k = 1; k <= count; k++) {
            List<Path> holding = byIndex.getOrDefault(k, List.of());
            if (holding.isEmpty()) {
                problems.add(ShardMessages.missing(new Shard(k, count), folders));
            } else if (holding.size() > 1) {
                problems.add(ShardMessages.duplicate(new Shard(k, count), holding));
            }
        }
        if (!problems.isEmpty()) {
            throw new ShardProblems(problems);
        }
        return combine(parts);
    }

    /** The parts as one report: scenarios in the yaml's order, findings in file order. */
    static RunReport combine(List<Part> parts) {
        record Placed(int position, ScenarioReport scenario) {
        }
        List<Placed> scenarios = new ArrayList<>();
        List<Violation> cassetteViolations = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<SecretFindingRow> findings = new ArrayList<>();
        LinkedHashSet<String> counterexamples = new LinkedHashSet<>();
        int checked = 0;
        int scanned = 0;
        int plans = 0;
        for (Part p : parts) {
            RunReport r = p.report();
            for (ScenarioReport s : r.scenarios()) {
                scenarios.add(new Placed(p.marker().positions().getOrDefault(s.name(), Integer.MAX_VALUE), s));
            }
            checked += r.cassettes().checked();
            cassetteViolations.addAll(r.cassettes().violations());
            warnings.addAll(r.cassettes().warnings());
            scanned += r.secrets().files();
            findings.addAll(r.secrets().findings());
            plans += r.exploration().plansExplored();
            counterexamples.addAll(r.exploration().counterexamples());
        }
        scenarios.sort(Comparator.comparingInt(Placed::position).thenComparing(pl -> pl.scenario().name()));
        Map<String, String> fingerprints = parts.get(0).marker().fingerprints();
        Set<String> bad = new HashSet<>();
        for (Violation v : cassetteViolations) {
            if (v.op() != null && fingerprints.containsKey(v.op())) {
                bad.add(fingerprints.get(v.op()));
            }
        }
        if (!bad.isEmpty()) {
            scenarios.removeIf(pl -> heldBack(pl.scenario().name(), parts, bad, warnings));
            warnings.sort(null);
        }
        cassetteViolations.sort(Comparator.comparing(Violation::subject));
        warnings.sort(null);
        findings.sort(Comparator.comparing(SecretFindingRow::file).thenComparingInt(SecretFindingRow::line)
                .thenComparingInt(SecretFindingRow::column).thenComparing(SecretFindingRow::rule));
        RunReport.Builder merged = RunReport.builder()
                .scenarios(scenarios.stream().map(Placed::scenario).toList())
                .cassettes(checked, cassetteViolations, warnings)
                .secrets(scanned, findings);
        if (plans > 0) {
            merged.exploration(plans, List.copyOf(counterexamples));
        }
        return merged.build();
    }

    /**
     * Whether {@code scenario} would not have run in an unsharded run: an op of it sends a request in {@code bad}, the
     * requests of the ops that cassette violations name (one of another shard, such as a cassette saved under another
     * op's fingerprint, is not seen by the scenario's own shard). Adds the line the unsharded run warns with.
     */
    private static boolean heldBack(String scenario, List<Part> parts, Set<String> bad, List<String> warnings) {
        for (Part p : parts) {
            List<String> ops = p.marker().ops().get(scenario);
            if (ops == null) {
                continue;
            }
            for (String op : ops) {
                String fp = p.marker().fingerprints().get(op);
                if (fp != null && bad.contains(fp)) {
                    warnings.add(BlockedScenarios.line(scenario, op, Path.of(p.marker().cassettes(), fp + ".json")));
                    return true;
                }
            }
            return false;
        }
        return false;
    }
}
