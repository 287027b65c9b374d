package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.secrets.Baseline;
import dev.resilienceharness.secrets.Finding;
import dev.resilienceharness.secrets.Rule;
import dev.resilienceharness.testing.TestProject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class SecretsInCassettesTest {

    private static final String KEY = "sk-proj-FAKEabcdefghijklmnop0123456789";

    @TempDir
    Path dir;

    /** A project whose plan cassette's response carries {@link #KEY} on line 6. */
    private HarnessConfig project(String redaction) throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 1s}
                redaction: %s
                scenarios:
                  - name: a
                    ops: [plan, patch]
                """.formatted(redaction), "plan", "patch");
        CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of())).write(config.request("plan"),
                (ObjectNode) Json.readTree("{\"note\": \"" + KEY + "\"}"), null);
        return config;
    }

    private Path planFile(HarnessConfig config) {
        CassetteStore store = CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of()));
        return store.fileFor(store.fingerprint(config.request("plan")));
    }

    @Test
    void a_secret_is_reported_masked_with_where_it_is_and_its_fingerprint() throws Exception {
        HarnessConfig config = project("{}");
        SecretsInCassettes.Report report = SecretsInCassettes.scan(config);
        assertEquals(2, report.files());
        assertEquals(1, report.findings().size());
        Finding f = report.findings().get(0);
        assertEquals("sk-p****", f.masked());
        assertEquals(Finding.fingerprint(Rule.OPENAI_KEY, KEY), f.fingerprint());
        assertEquals(1, report.violations().size());
        Violation v = report.violations().get(0);
        assertEquals(planFile(config) + ":6:13", v.subject());
        assertEquals(planFile(config) + ":6:13 [secrets]: " + Rule.OPENAI_KEY.title() + " (openai-key) at"
                + " $.response.note: sk-p****, fingerprint " + f.fingerprint() + ". Re-record it (mvn resilience:record"
                + " redacts before writing) or remove the value; if it is no secret, add its fingerprint to"
                + " redaction.allow", v.line());
        assertFalse(v.line().contains(KEY));
    }

    @Test
    void a_finding_allowed_by_its_fingerprint_is_not_reported() throws Exception {
        SecretsInCassettes.Report report = SecretsInCassettes.scan(
                project("{allow: [\"" + Finding.fingerprint(Rule.OPENAI_KEY, KEY) + "\"]}"));
        assertEquals(List.of(), report.findings());
        assertEquals(List.of(), report.violations());
    }

    @Test
    void a_finding_allowed_by_a_regex_is_not_reported() throws Exception {
        assertEquals(List.of(), SecretsInCassettes.scan(project("{allow: [\"sk-proj-FAKE.*\"]}")).violations());
        assertEquals(1, SecretsInCassettes.scan(project("{allow: [\"sk-proj-REAL.*\"]}")).violations().size(),
                "a regex that does not match the whole secret allows nothing");
    }

    @Test
    void findings_in_the_baseline_file_are_accepted() throws Exception {
        HarnessConfig withoutBaseline = project("{}");
        List<Finding> found = SecretsInCassettes.scan(withoutBaseline).findings();
        Baseline.of(found).write(dir.resolve("secrets-baseline.json"));
        HarnessConfig config = project("{baseline: secrets-baseline.json}");
        assertEquals(List.of(), SecretsInCassettes.scan(config).violations());
    }

    @Test
    void a_baseline_file_that_is_not_there_accepts_nothing() throws Exception {
        assertEquals(1, SecretsInCassettes.scan(project("{baseline: missing-baseline.json}")).findings().size());
    }

    @Test
    void a_malformed_baseline_file_is_an_error_naming_it() throws Exception {
        Files.writeString(dir.resolve("secrets-baseline.json"), "{\"version\": 2, \"accepted\": []}");
        HarnessConfig config = project("{baseline: secrets-baseline.json}");
        IOException e = assertThrows(IOException.class, () -> SecretsInCassettes.scan(config));
        assertTrue(e.getMessage().contains("secrets-baseline.json"), e.getMessage());
    }

    @Test
    void a_file_that_cannot_be_scanned_is_reported_since_it_may_hide_a_secret() throws Exception {
        HarnessConfig config = project("{}");
        Path broken = Files.writeString(dir.resolve("cassettes").resolve("1111111111111111.json"),
                "{\"request\": {},\n \"response\": \"" + KEY);
        Path folder = Files.createDirectories(dir.resolve("cassettes").resolve("2222222222222222.json"));
        SecretsInCassettes.Report report = SecretsInCassettes.scan(config);
        assertEquals(4, report.files());
        List<Violation> violations = report.violations();
        assertEquals(3, violations.size(), violations.toString());
        assertEquals(Invariant.SECRETS, violations.get(0).invariant());
        Violation unparsed = violations.get(1);
        assertTrue(unparsed.subject().startsWith(broken + ":2:"), unparsed.subject());
        assertTrue(unparsed.message().startsWith("cannot be scanned: "), unparsed.message());
        assertFalse(unparsed.line().contains(KEY), "the message never quotes the file");
        assertTrue(violations.get(2).line().startsWith(folder + " [secrets]: cannot be scanned: is a folder"),
                violations.get(2).line());
        assertTrue(violations.get(2).line().endsWith(". Fix or remove the file so it can be scanned"),
                violations.get(2).line());
    }

    @Test
    void a_part_of_the_folder_is_scanned_alone() throws Exception {
        HarnessConfig config = project("{}");
        Path withSecret = SecretsInCassettes.scan(config).findings().get(0).file();
        SecretsInCassettes.Report others = SecretsInCassettes.scan(config, true, f -> !f.equals(withSecret));
        assertEquals(1, others.files());
        assertEquals(List.of(), others.findings());
        SecretsInCassettes.Report it = SecretsInCassettes.scan(config, true, f -> f.equals(withSecret));
        assertEquals(1, it.files());
        assertEquals(1, it.findings().size());
    }

    @Test
    void a_finding_is_the_violation_the_scan_reports() throws Exception {
        SecretsInCassettes.Report report = SecretsInCassettes.scan(project("{}"));
        assertEquals(report.violations(), List.of(SecretsInCassettes.violation(report.findings().get(0))));
    }

    private static final String TEAM_RULES = """
            [extend]
            useDefault = true

            [[rules]]
            id = "acme-internal-token"
            regex = '''acme_live_[a-z0-9]{24}'''
            keywords = ["acme_live_"]
            """;

    @Test
    void a_gitleaks_toml_beside_the_yaml_adds_the_teams_rules() throws Exception {
        Files.writeString(dir.resolve(".gitleaks.toml"), TEAM_RULES);
        HarnessConfig config = project("{}");
        assertEquals(dir.resolve(".gitleaks.toml"), config.redaction().gitleaksConfig());
        CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of())).write(config.request("patch"),
                (ObjectNode) Json.readTree("{\"note\": \"use acme_live_q8zr2lm5np0xv7tb4kc1wd9y\"}"), null);
        SecretsInCassettes.Report report = SecretsInCassettes.scan(config);
        assertEquals(List.of("acme-internal-token", "openai-key"),
                report.findings().stream().map(Finding::ruleId).sorted().toList());
        Finding team = report.findings().stream().filter(f -> f.rule() == null).findFirst().orElseThrow();
        assertEquals("acme****", team.masked());
        assertTrue(report.violations().stream().anyMatch(v -> v.line().contains("Team rule (acme-internal-token)")),
                report.violations().toString());
    }

    @Test
    void secrets_gitleaks_config_names_the_rules_and_a_missing_file_is_an_error() throws Exception {
        Files.createDirectories(dir.resolve("rules"));
        Files.writeString(dir.resolve("rules/team.toml"), TEAM_RULES);
        HarnessConfig named = project("{}\nsecrets: {gitleaks_config: rules/team.toml}");
        assertEquals(dir.resolve("rules/team.toml"), named.redaction().gitleaksConfig());
        assertEquals(1, SecretsInCassettes.scan(named).findings().size());
        HarnessConfig missing = project("{}\nsecrets: {gitleaks_config: rules/none.toml}");
        IOException e = assertThrows(IOException.class, () -> SecretsInCassettes.scan(missing));
        assertEquals(dir.resolve("rules/none.toml") + ": does not exist", e.getMessage());
    }

    @Test
    void without_a_gitleaks_toml_there_are_no_team_rules() throws Exception {
        assertEquals(null, project("{}").redaction().gitleaksConfig());
    }

    @Test
    void a_secret_planted_in_a_tool_recording_is_found_naming_the_file() throws Exception {
        HarnessConfig config = project("{}");
        Path tools = dir.resolve("cassettes/tools");
        Files.createDirectories(tools);
        Path planted = tools.resolve("0123456789abcdef.json");
        Files.writeString(planted, "{\"tool\": \"refund\", \"arguments\": {}, \"result\": \"" + KEY + "\"}");

        SecretsInCassettes.Report report = SecretsInCassettes.scan(config);

        assertEquals(3, report.files(), "two cassettes and one tool recording");
        assertEquals(2, report.findings().size());
        Finding inTool = report.findings().stream().filter(f -> f.file().equals(planted)).findFirst().orElseThrow();
        assertEquals("$.result", inTool.jsonPath());
        assertTrue(report.violations().stream().anyMatch(v -> v.subject().startsWith(planted + ":1:")),
                report.violations().toString());
        assertEquals(1, SecretsInCassettes.scan(config, true, f -> f.equals(planted)).findings().size(),
                "a shard scans the tool recordings it owns");
    }

    @Test
    void a_secret_planted_in_an_mcp_session_is_found_naming_the_file() throws Exception {
        HarnessConfig config = project("{}");
        Path planted = dev.resilienceharness.mcp.McpCassetteFiles.sessionFile(dir.resolve("cassettes"), "billing",
                "checkout");
        Files.createDirectories(planted.getParent());
        Files.writeString(planted, "{\"version\": 1, \"server\": \"billing\", \"transport\": \"stdio\","
                + " \"exchanges\": [{\"request\": {\"method\": \"tools/call\"}, \"response\": {\"offset_ms\": 3,"
                + " \"result\": {\"note\": \"" + KEY + "\"}}}]}");

        SecretsInCassettes.Report report = SecretsInCassettes.scan(config);

        assertEquals(3, report.files(), "two cassettes and one MCP session");
        Finding inSession = report.findings().stream().filter(f -> f.file().equals(planted)).findFirst()
                .orElseThrow();
        assertEquals("$.exchanges[0].response.result.note", inSession.jsonPath());
        assertEquals(1, SecretsInCassettes.scan(config, true, f -> f.equals(planted)).findings().size(),
                "a shard scans the MCP sessions it owns");
    }
}
