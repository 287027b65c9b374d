package dev.resilienceharness.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import dev.resilienceharness.report.ReportJson;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.report.SecretFindingRow;
import dev.resilienceharness.run.RunError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code report-aggregate} accepts a module's finding of its team's own rule when the module's folder has the
 * {@code .gitleaks.toml} that declares it ({@code merge} is covered with real shards in ShardMergeTest).
 */
class MergeRunTest {

    @TempDir
    Path dir;

    private static final SecretFindingRow TEAM = new SecretFindingRow("cassettes/c06d109f908d3f58.json", 13, 22,
            "$.response.choices[0].message.content", "acme-internal-token", "q8zr****", "eb9a8c359e9993ed");

    private MergeRun.Module module(String name) throws Exception {
        Path base = Files.createDirectories(dir.resolve(name));
        Path report = Files.createDirectories(base.resolve("target/resilience")).resolve("report.json");
        Files.writeString(report, ReportJson.write(RunReport.builder().secrets(1, List.of(TEAM)).build()));
        return new MergeRun.Module(name, base, base.resolve("target"), true);
    }

    @Test
    void aModulesTeamRuleFindingIsAggregatedWithItsId() throws Exception {
        MergeRun.Module shop = module("shop");
        Files.writeString(shop.baseDir().resolve(".gitleaks.toml"), """
                [[rules]]
                id = "acme-internal-token"
                regex = '''acme_live_[a-z0-9]{24}'''
                """);
        ReportRunTest.Lines log = new ReportRunTest.Lines();
        Path out = dir.resolve("out");
        MergeRun.aggregate(log, List.of(shop), dir, out, false);
        JsonNode sarif = Json.readTree(Files.readAllBytes(out.resolve("secrets.sarif")));
        assertEquals("acme-internal-token", sarif.get("runs").get(0).get("results").get(0).get("ruleId").asString());
        assertTrue(log.lines.stream().anyMatch(l -> l.startsWith("warn ") && l.contains(
                "[secrets]: Team rule (acme-internal-token) at $.response.choices[0].message.content: q8zr****")),
                log.lines::toString);
    }

    @Test
    void withoutTheTeamsFileTheIdIsADamagedReport() throws Exception {
        MergeRun.Module shop = module("shop");
        RunError e = assertThrows(RunError.class,
                () -> MergeRun.aggregate(new ReportRunTest.Lines(), List.of(shop), dir, dir.resolve("out"), false));
        assertEquals("a module's report.json is damaged: shop/cassettes/c06d109f908d3f58.json:13:22: no secret rule has"
                + " the id 'acme-internal-token'; run its report goal again", e.getMessage());
    }

    @Test
    void aTeamsFileThatCannotBeReadIsNamed() throws Exception {
        MergeRun.Module shop = module("shop");
        Files.writeString(shop.baseDir().resolve(".gitleaks.toml"), "[[rules]]\nregex = 'x'\n");
        RunError e = assertThrows(RunError.class,
                () -> MergeRun.aggregate(new ReportRunTest.Lines(), List.of(shop), dir, dir.resolve("out"), false));
        assertEquals(shop.baseDir().resolve(".gitleaks.toml") + ": rules[0] has no id; give every rule an id"
                + " (findings carry it)", e.getMessage());
    }
}
