package dev.resilienceharness.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.AtomicFiles;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The drift part of {@code report.html}: what the last {@code resilience:drift} found (its {@code drift.json}), and
 * the latency distributions the cassettes recorded. Empty when there is neither.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class DriftSection {

    /** Where the section starts in the page, so a later drift run replaces it. */
    static final String START = "<section id=\"drift\">";
    private static final String END = "</section><!--drift-->\n";

    private DriftSection() {
    }

    /** The {@code drift.json} in {@code outputDir}, or {@code null} when there is none or it cannot be read. */
    public static JsonNode read(Path outputDir) {
        try {
            return Json.readTree(Files.readAllBytes(outputDir.resolve("drift.json")));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | JacksonException e) {
            return null; // a broken drift.json is the drift goal's to rewrite; the page goes on without it
        }
    }

    /** The section, or {@code ""} when {@code drift} is {@code null} and no cassette has samples. */
    public static String html(JsonNode drift, List<LatencyDistribution> latency) {
        if (drift == null && latency.isEmpty()) {
            return "";
        }
        StringBuilder h = new StringBuilder(START).append("<h2>Drift</h2>");
        if (drift == null) {
            h.append("<p class=\"muted\">No drift check has run: mvn resilience:drift compares the cassettes with the"
                    + " live provider.</p>");
        } else {
            h.append("<p>").append(drift.path("checked").asInt()).append(" cassettes checked against the live"
                    + " provider: ").append(drift.path("drifted").asInt()).append(" drifted, ")
                    .append(drift.path("unchanged").asInt()).append(" unchanged");
            int notSent = drift.path("not_sent").asInt();
            int failed = drift.path("failed").asInt();
            if (notSent > 0) {
                h.append(", ").append(notSent).append(" not sent");
            }
            if (failed > 0) {
                h.append(", ").append(failed).append(" failed");
            }
            h.append(".</p>");
            if (drift.path("stopped_by").isString()) {
                h.append("<p class=\"muted\">").append(HtmlReport.esc(drift.get("stopped_by").asString()))
                        .append("</p>");
            }
            h.append("<table class=\"findings\"><thead><tr><th>cassette</th><th>op</th><th>status</th>"
                    + "<th>changes</th></tr></thead><tbody>");
            for (JsonNode c : drift.path("cassettes")) {
                h.append("<tr><td><code>").append(HtmlReport.esc(c.path("cassette").asString(""))).append("</code></td><td>")
                        .append(HtmlReport.esc(c.path("op").asString(""))).append("</td><td>")
                        .append(HtmlReport.esc(c.path("status").asString(""))
                                + (c.path("updated").asBoolean(false) ? " (re-recorded)" : ""))
                        .append("</td><td>");
                if (c.path("changes").isEmpty()) {
                    h.append(HtmlReport.esc(c.path("detail").asString("")));
                } else {
                    h.append("<ul class=\"warnings\">");
                    for (JsonNode ch : c.path("changes")) {
                        h.append("<li><code>").append(HtmlReport.esc(ch.path("message").asString(""))).append("</code></li>");
                    }
                    h.append("</ul>");
                }
                h.append("</td></tr>");
            }
            h.append("</tbody></table>");
        }
        if (!latency.isEmpty()) {
            h.append("<h3>Recorded latency</h3><p class=\"muted\">The timing samples each cassette recorded, which"
                    + " <code>{latency: recorded}</code> draws from (median / p95 / slowest, ms).</p>"
                    + "<table class=\"findings\"><thead><tr><th>cassette</th><th>op</th><th>samples</th>"
                    + "<th>first token</th><th>total</th></tr></thead><tbody>");
            for (LatencyDistribution d : latency) {
                h.append("<tr><td><code>").append(HtmlReport.esc(d.cassette())).append("</code></td><td>")
                        .append(HtmlReport.esc(d.op() == null ? "" : d.op())).append("</td><td>").append(d.samples())
                        .append("</td><td>").append(spread(d.firstToken())).append("</td><td>").append(spread(d.total()))
                        .append("</td></tr>");
            }
            h.append("</tbody></table>");
        }
        return h.append(END).toString();
    }

    private static String spread(LatencyDistribution.Spread s) {
        return s == null ? "\u2013" : s.p50() + " / " + s.p95() + " / " + s.max();
    }

    /**
     * Puts {@code section} into {@code outputDir/report.html} in place of an earlier drift section, or before the
     * page's end; without a page, writes one that has only this section checked.
     */
    public static Path splice(Path outputDir, String section) throws IOException {
        Path file = outputDir.resolve(ReportWriter.HTML);
        String page;
        try {
            page = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            page = null;
        }
        String updated;
        if (page == null) {
            updated = HtmlReport.toHtml(RunReport.builder().build(), EnumSet.noneOf(Invariant.class), section);
        } else {
            int start = page.indexOf(START);
            int end = start < 0 ? -1 : page.indexOf(END, start);
            if (start >= 0 && end >= 0) {
                updated = page.substring(0, start) + section + page.substring(end + END.length());
            } else {
                int main = page.lastIndexOf("</main>");
                if (main < 0) {
                    return file; // not a page this plugin wrote; leave it alone
                }
                updated = page.substring(0, main) + section + page.substring(main);
            }
        }
        AtomicFiles.write(file, updated.getBytes(StandardCharsets.UTF_8));
        return file;
    }
}
