package dev.resilienceharness.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.scenario.StallBound;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report goal's work without Maven: one pass, every report written, the verdict. */
class ReportRunTest {

    private static final String YAML = """
            version: 1
            policy:
              max_total_wait: 15s
            scenarios:
              - name: plan-then-patch
                ops: [plan, patch]
            """;

    @Test
    void a_pass_writes_every_report_and_says_where(@TempDir Path dir) throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        Path out = dir.resolve("target/resilience");
        Lines log = new Lines();
        ReportWriter.Written written = ReportRun.run(log, options(dir, out, false), config,
                () -> pass(log, config));
        for (String file : List.of("report.html", "report.json", "junit/TEST-resilience.xml", "secrets.sarif")) {
            assertTrue(Files.isRegularFile(out.resolve(file)), file);
        }
        assertEquals(out.resolve("report.json"), written.json());
        assertTrue(log.lines.contains("info Checked 2 cassettes in " + config.cassettes()), log.lines::toString);
        assertEquals("info Report: " + written.html().toUri(), log.lines.get(log.lines.size() - 1));
        assertEquals(1, Json.readTree(Files.readAllBytes(written.json())).get("scenarios").size());
    }

    @Test
    void an_unreadable_exploration_is_left_out_with_a_warning_and_violations_fail_only_when_asked(@TempDir Path dir)
            throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        // A cassette that does not parse: a violation, which no scenario needs.
        Files.writeString(config.cassettes().resolve("0123456789abcdef.json"), "{");
        Path out = dir.resolve("target/resilience");
        Files.createDirectories(out);
        Files.writeString(out.resolve("explore.json"), "{ not json");
        Lines log = new Lines();
        ReportRun.run(log, options(dir, out, false), config, () -> pass(log, config));
        assertTrue(log.lines.stream().anyMatch(l -> l.startsWith("warn " + out.resolve("explore.json")
                + ": not included in the report, it cannot be read: ")), log.lines::toString);

        RunFailure failure = assertThrows(RunFailure.class,
                () -> ReportRun.run(new Lines(), options(dir, out, true), config, () -> pass(new Lines(), config)));
        assertTrue(failure.getMessage().startsWith("resilience:report: 1 violation (" + Invariant.CASSETTES.id()
                + " 1); see "),
                failure.getMessage());
    }

    private static ReportRun.Options options(Path dir, Path out, boolean failOnViolation) {
        return new ReportRun.Options(out, dir, Shard.WHOLE, 2, false, failOnViolation);
    }

    private static CheckPass.Result pass(RunLog log, HarnessConfig config) throws RunError {
        ScenarioRunner runner = new ScenarioRunner(log, "report", Shard.WHOLE, 2, StallBound.of(null), List::of);
        return CheckPass.run(runner, config, false, false, null, null);
    }

    /** A log that keeps its lines as {@code "level text"}. */
    static final class Lines implements RunLog {

        final List<String> lines = new ArrayList<>();

        @Override
        public boolean isDebugEnabled() {
            return false;
        }

        @Override
        public void debug(String line) {
        }

        @Override
        public void info(String line) {
            lines.add("info " + line);
        }

        @Override
        public void warn(String line) {
            lines.add("warn " + line);
        }

        @Override
        public void error(String line) {
            lines.add("error " + line);
        }
    }
}
