package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.secrets.Finding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class MergedReportsTest {

    @TempDir
    Path dir;

    private static final SecretFindingRow ROW = new SecretFindingRow("cassettes/c06d109f908d3f58.json", 13, 22,
            "$.response.choices[0].message.content", "openai-key", "sk-p****", "a5bd6b249a2c7f72");

    private static RunReport report() throws Exception {
        return RunReport.builder().scenarios(ReportFixtures.corpus("plain"))
                .cassettes(3, List.of(new Violation(Invariant.CASSETTES, "/x/cassettes/bad.json", null, null, null,
                        "is not valid JSON", "Fix it")), List.of())
                .secrets(3, List.of(ROW)).build();
    }

    @Test
    void writesTheFourReportsWithTheSarifOfTheFindings() throws Exception {
        RunReport report = report();
        ReportWriter.Written written = MergedReports.write(report, dir, dir.resolve("out"));
        assertTrue(Files.readString(written.html()).contains("s0000"));
        assertEquals(ReportJson.write(report), Files.readString(written.json()));
        assertTrue(Files.readString(written.junit()).contains("<testsuite"));
        JsonNode sarif = Json.readTree(Files.readAllBytes(dir.resolve("out/secrets.sarif")));
        JsonNode result = sarif.get("runs").get(0).get("results").get(0);
        assertEquals("openai-key", result.get("ruleId").asString());
        assertEquals("cassettes/c06d109f908d3f58.json", result.get("locations").get(0).get("physicalLocation")
                .get("artifactLocation").get("uri").asString());
        assertEquals(1, sarif.get("runs").get(0).get("results").size());
    }

    @Test
    void theViolationsAreTheLinesTheGoalsPrint() throws Exception {
        List<String> lines = MergedReports.violations(report(), dir).stream().map(Violation::line).toList();
        assertEquals("/x/cassettes/bad.json [cassettes]: is not valid JSON. Fix it", lines.get(0));
        assertEquals(dir.resolve("cassettes/c06d109f908d3f58.json") + ":13:22 [secrets]: OpenAI API key (openai-key)"
                + " at $.response.choices[0].message.content: sk-p****, fingerprint a5bd6b249a2c7f72. Re-record it (mvn"
                + " resilience:record redacts before writing) or remove the value; if it is no secret, add its"
                + " fingerprint to redaction.allow", lines.get(lines.size() - 1));
        assertEquals(2, lines.size(), "the plain corpus breaks nothing");
    }

    @Test
    void aRowOfAnUnknownRuleIsRefused() {
        SecretFindingRow odd = new SecretFindingRow("c.json", 1, 1, "$", "no-such-rule", "sk-p****",
                "a5bd6b249a2c7f72");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MergedReports.findings(List.of(odd), dir));
        assertEquals("c.json:1:1: no secret rule has the id 'no-such-rule'", e.getMessage());
    }

    @Test
    void aRowOfATeamRuleIsKeptWithItsIdWhenTheTeamsRulesNameIt() throws Exception {
        SecretFindingRow team = new SecretFindingRow("c.json", 2, 5, "$.note", "acme-internal-token", "acme****",
                "6a9c7d720400b9a5");
        List<Finding> found = MergedReports.findings(List.of(ROW, team), dir, Set.of("acme-internal-token"));
        assertEquals("acme-internal-token", found.get(1).ruleId());
        assertEquals(null, found.get(1).rule());
        assertEquals("Team rule", found.get(1).title());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MergedReports.findings(List.of(team), dir, Set.of("acme-internal-tokens")));
        assertEquals("c.json:2:5: no secret rule has the id 'acme-internal-token'", e.getMessage(),
                "an id the team's rules do not have is still a damaged report");
    }
}
