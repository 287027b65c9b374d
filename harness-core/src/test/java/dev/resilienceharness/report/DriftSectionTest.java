package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.drift.Change;
import dev.resilienceharness.drift.ChangeKind;
import dev.resilienceharness.drift.DriftJson;
import dev.resilienceharness.drift.DriftResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class DriftSectionTest {

    @TempDir
    Path dir;

    private static JsonNode drift(String path) {
        return DriftJson.toJson(new DriftResult(List.of(new DriftResult.Entry("cassettes/ab.json", "lookup",
                DriftResult.Status.DRIFTED, List.of(new Change(ChangeKind.TOOL_CALL_GONE, path, "lookup", null)),
                null, null, null, false)), null));
    }

    private static final List<LatencyDistribution> LATENCY = List.of(LatencyDistribution.of("cassettes/cd.json",
            "plan", new Timing(null, 40L, List.of(new Timing(null, 40L), new Timing(null, 90L)))));

    @Test
    void showsEachDriftedCassetteWithItsChangesAndTheRecordedDistributions() {
        String html = DriftSection.html(drift("choices[0].message.tool_calls"), LATENCY);
        assertTrue(html.startsWith("<section id=\"drift\"><h2>Drift</h2><p>1 cassettes checked against the live"
                + " provider: 1 drifted, 0 unchanged.</p>"), html);
        assertTrue(html.contains("<td><code>cassettes/ab.json</code></td><td>lookup</td><td>drifted</td>"), html);
        assertTrue(html.contains("<li><code>choices[0].message.tool_calls: the tool call is gone (the cassette calls"
                + " &#39;lookup&#39;)</code></li>"), html);
        assertTrue(html.contains("<td><code>cassettes/cd.json</code></td><td>plan</td><td>2</td><td>\u2013</td>"
                + "<td>40 / 90 / 90</td>"), html);
    }

    @Test
    void isEmptyWithoutADriftRunOrSamples() {
        assertEquals("", DriftSection.html(null, List.of()));
        assertTrue(DriftSection.html(null, LATENCY).contains("No drift check has run"));
    }

    @Test
    void readsDriftJsonFromTheReportFolder() throws Exception {
        assertEquals(null, DriftSection.read(dir));
        DriftJson.write(dir, new DriftResult(List.of(), null));
        assertEquals(0, DriftSection.read(dir).get("checked").asInt());
        Files.writeString(dir.resolve("drift.json"), "{broken");
        assertEquals(null, DriftSection.read(dir));
    }

    @Test
    void aLaterDriftRunReplacesTheSectionOfAnExistingPage() throws Exception {
        Path page = DriftSection.splice(dir, DriftSection.html(drift("first.path"), List.of()));
        String once = Files.readString(page);
        assertTrue(once.contains("first.path") && once.contains("<main>"), once);
        Files.writeString(page, HtmlReport.toHtml(RunReport.builder().build(), EnumSet.noneOf(
                dev.resilienceharness.invariant.Invariant.class)));
        DriftSection.splice(dir, DriftSection.html(drift("first.path"), List.of()));
        DriftSection.splice(dir, DriftSection.html(drift("second.path"), List.of()));
        String twice = Files.readString(page);
        assertTrue(twice.contains("second.path") && !twice.contains("first.path"), twice);
        assertEquals(1, twice.split(DriftSection.START, -1).length - 1, "one drift section");
        assertTrue(twice.indexOf(DriftSection.START) < twice.indexOf("</main>"));
    }
}
