package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

    @Test
    void writes_html_json_and_junit_xml_where_ci_finds_them(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("target/resilience");
        RunReport report = ReportJsonTest.small();
        ReportWriter.Written w = ReportWriter.writeAll(report, EnumSet.allOf(Invariant.class), out);
        assertEquals(out.resolve("report.html"), w.html());
        assertEquals(out.resolve("report.json"), w.json());
        assertEquals(out.resolve("junit/TEST-resilience.xml"), w.junit());
        assertEquals(ReportJson.write(report), Files.readString(w.json()));
        assertEquals(3, Json.readTree(Files.readAllBytes(w.json())).get("summary").get("violations").asInt());
        assertEquals(List.of(), ReportJsonTest.validate(Json.readTree(Files.readAllBytes(w.json()))));
        JUnitXmlReportTest.validate(Files.readString(w.junit()));
        assertTrue(Files.readString(w.html()).startsWith("<!DOCTYPE html>"));
    }

    @Test
    void replaces_old_reports_and_leaves_no_temporary_files(@TempDir Path dir) throws Exception {
        ReportWriter.writeAll(ReportJsonTest.small(), EnumSet.allOf(Invariant.class), dir);
        ReportWriter.Written w = ReportWriter.writeAll(RunReport.builder().build(), EnumSet.noneOf(Invariant.class),
                dir);
        assertEquals(0, Json.readTree(Files.readAllBytes(w.json())).get("summary").get("violations").asInt());
        try (Stream<Path> files = Files.walk(dir)) {
            assertEquals(List.of("TEST-resilience.xml", "junit", "report.html", "report.json"),
                    files.filter(p -> !p.equals(dir)).map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void side_effects_is_checked_only_with_tools(@TempDir Path dir) throws Exception {
        java.util.Set<dev.resilienceharness.invariant.Invariant> all =
                java.util.EnumSet.allOf(dev.resilienceharness.invariant.Invariant.class);
        assertEquals(all, ReportWriter.checked(true));
        all.remove(dev.resilienceharness.invariant.Invariant.SIDE_EFFECTS);
        assertEquals(all, ReportWriter.checked(false));
        assertEquals(true, ReportWriter.ranTools(RunReport.builder().scenarios(ReportFixtures.tools(dir)).build()));
        assertEquals(false, ReportWriter.ranTools(RunReport.builder()
                .scenario(ReportFixtures.handmade("s", "plan", java.util.List.of())).build()));
    }
}
