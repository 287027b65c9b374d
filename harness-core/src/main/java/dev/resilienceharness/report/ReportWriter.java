package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.invariant.Invariant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Writes the reports of docs reports.md into one folder ({@code target/resilience/} for the goals):
 * {@code report.html}, {@code report.json} and {@code junit/TEST-resilience.xml}, each atomically so a reader
 * never sees half a file. {@code secrets.sarif} is written by the secret scanner.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ReportWriter {

    /** The page people open first. */
    public static final String HTML = "report.html";

    /** The machine-readable report. */
    public static final String JSON = "report.json";

    /** The JUnit XML file, in its own folder so CI globs such as {@code **}{@code /junit/*.xml} find it alone. */
    public static final String JUNIT = "junit/TEST-resilience.xml";

    /**
     * Where the reports went.
     *
     * @param html  report.html
     * @param json  report.json
     * @param junit the JUnit XML file
     */
    public record Written(Path html, Path json, Path junit) {
    }

    private ReportWriter() {
    }

    /**
     * The invariants a pass checks: all of them, but {@code side_effects} only when the project declares tools or a
     * scenario ran one, so that a project without tools sees no test case or summary row it could never fail
     * (docs reports.md). report.json counts every invariant all the same.
     */
    public static Set<Invariant> checked(boolean tools) {
        Set<Invariant> checked = java.util.EnumSet.allOf(Invariant.class);
        if (!tools) {
            checked.remove(Invariant.SIDE_EFFECTS);
        }
        return checked;
    }

    /** Whether a scenario of {@code report} ran a tool: what a merge, which has no configuration, goes by. */
    public static boolean ranTools(RunReport report) {
        return report.scenarios().stream().anyMatch(s -> !s.timeline().tools().isEmpty());
    }

    /**
     * Writes all three reports.
     *
     * @param checked the invariants the run checked (the JUnit test cases and the page's "not checked")
     * @throws IOException when a file cannot be written; files already written stay complete
     */
    public static Written writeAll(RunReport report, Set<Invariant> checked, Path outputDir) throws IOException {
        return writeAll(report, checked, outputDir, DriftSection.html(DriftSection.read(outputDir), java.util.List.of()));
    }

    /** Writes all three reports, the page with {@code more} sections (see {@link DriftSection}). */
    public static Written writeAll(RunReport report, Set<Invariant> checked, Path outputDir, String more)
            throws IOException {
        Path json = outputDir.resolve(JSON);
        Path junit = outputDir.resolve(JUNIT);
        Path html = outputDir.resolve(HTML);
        AtomicFiles.write(json, ReportJson.write(report).getBytes(StandardCharsets.UTF_8));
        AtomicFiles.write(junit, JUnitXmlReport.toXml(report, checked).getBytes(StandardCharsets.UTF_8));
        AtomicFiles.write(html, HtmlReport.toHtml(report, checked, more).getBytes(StandardCharsets.UTF_8));
        return new Written(html, json, junit);
    }
}
