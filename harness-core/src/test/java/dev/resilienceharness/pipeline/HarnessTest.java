package dev.resilienceharness.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.report.ReportWriter;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HarnessTest {

    private static final String YAML = """
            version: 1
            policy:
              max_total_wait: 15s
            scenarios:
              - name: plan-then-patch
                ops: [plan, patch]
              - name: proxy-only
                faults: [timeout]
            """;

    @Test
    void a_goal_leaves_out_the_scenarios_for_serve_only_and_says_so(@TempDir Path dir) throws Exception {
        TestProject.create(dir, YAML, "plan", "patch");
        ReportRunTest.Lines log = new ReportRunTest.Lines();
        HarnessConfig config = Harness.load(log, dir.resolve("resilience.yaml"), null, "check", false);
        assertEquals(List.of("plan-then-patch"), config.scenarios().stream().map(s -> s.name()).toList());
        assertEquals(List.of("info Scenario 'proxy-only' has no ops: it is a fault plan for resilience:serve, and"
                + " resilience:check leaves it out"), log.lines);
        assertEquals(2, Harness.load(new ReportRunTest.Lines(), dir.resolve("resilience.yaml"), null, "serve", true)
                .scenarios().size());
    }

    @Test
    void a_bad_yaml_is_an_error_that_names_it(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, "version: 1\npolicy: [\n");
        RunError e = assertThrows(RunError.class,
                () -> Harness.load(new ReportRunTest.Lines(), yaml, null, "check", false));
        assertTrue(e.getMessage().contains(yaml.toString()), e.getMessage());
    }

    @Test
    void a_shard_is_parsed_or_named_as_the_error() throws RunError {
        assertEquals(Shard.WHOLE, Harness.shard(null));
        assertEquals(Shard.parse("2/8"), Harness.shard("2/8"));
        assertThrows(RunError.class, () -> Harness.shard("9/8"));
    }

    @Test
    void the_report_of_a_project_from_plain_java(@TempDir Path dir) throws Exception {
        TestProject.create(dir, YAML, "plan", "patch");
        ReportRunTest.Lines log = new ReportRunTest.Lines();
        ReportWriter.Written written = Harness.report(log, dir.resolve("resilience.yaml"), dir,
                dir.resolve("out"), List.of());
        assertEquals(dir.resolve("out/report.json"), written.json());
        assertTrue(Files.isRegularFile(dir.resolve("out/secrets.sarif")));
        assertEquals("info Report: " + written.html().toUri(), log.lines.get(log.lines.size() - 1));
    }

    @Test
    void an_aggregator_without_the_default_yaml_is_skipped_but_a_named_config_must_be_there(@TempDir Path dir)
            throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        assertEquals(false, Harness.runsOn(yaml, dir, true, null, null), "an aggregator pom without a yaml");
        RunError typo = assertThrows(RunError.class,
                () -> Harness.runsOn(dir.resolve("resilence.yaml"), dir, true, null, null));
        assertTrue(typo.getMessage().contains("resilence.yaml"), typo.getMessage());
        Files.createDirectory(yaml);
        assertThrows(RunError.class, () -> Harness.runsOn(yaml, dir, true, null, null), "a folder is no config");
        Files.delete(yaml);
        Files.writeString(yaml, "version: 1\ncassettes: cassettes\n");
        assertEquals(true, Harness.runsOn(yaml, dir, false, dir.resolve("target/resilience"), dir.resolve("target")));
    }
}
