package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class CassetteIntegrityReportTest {

    private static final String YAML = """
            version: 1
            volatile: [response.id]
            policy: {max_total_wait: 1s}
            scenarios:
              - name: a
                ops: [plan, patch]
              - name: b
                ops: [patch]
            """;

    @TempDir
    Path dir;

    private HarnessConfig project(String... ops) throws Exception {
        return TestProject.create(dir, YAML, ops);
    }

    private Path cassettes() {
        return dir.resolve("cassettes");
    }

    private Path fileFor(HarnessConfig config, String op) {
        CassetteStore store = CassetteStore.replaying(cassettes(), VolatilePaths.of(config.volatilePaths()));
        return store.fileFor(store.fingerprint(config.request(op)));
    }

    @Test
    void a_folder_with_a_sound_cassette_for_every_op_passes() throws Exception {
        HarnessConfig config = project("plan", "patch");
        CassetteIntegrity.Report report = CassetteIntegrity.check(config, true);
        assertEquals(2, report.checked());
        assertEquals(List.of(), report.violations());
        assertEquals(List.of(), report.warnings());
    }

    @Test
    void a_misnamed_cassette_is_told_its_right_name() throws Exception {
        HarnessConfig config = project("plan", "patch");
        Path right = fileFor(config, "plan");
        Path wrong = Files.move(right, cassettes().resolve("0000000000000000.json"));
        List<String> lines = CassetteIntegrity.check(config, false).violations().stream().map(Violation::line).toList();
        String fp = right.getFileName().toString().replace(".json", "");
        assertEquals(List.of(
                wrong + " [cassettes] op 'plan': the file name is not its request's fingerprint (bound " + fp + ".json,"
                        + " actual 0000000000000000.json). Rename it to " + fp + ".json, or re-record it with mvn"
                        + " resilience:record",
                dir.resolve("resilience.yaml") + ":6:11: scenarios[0].ops[0] [cassettes] op 'plan': no cassette for op"
                        + " 'plan': looked for " + fp + ".json; the nearest recorded request is 0000000000000000.json,"
                        + " which is the same request under another name. Run mvn resilience:record to record it"),
                lines);
    }

    @Test
    void a_volatile_field_left_in_a_cassette_is_reported() throws Exception {
        HarnessConfig config = project("plan", "patch");
        CassetteStore.replaying(cassettes(), VolatilePaths.of(List.of())).write(config.request("plan"),
                (ObjectNode) Json.readTree("{\"id\": \"chatcmpl-1\", \"done\": \"plan\"}"), null);
        List<Violation> violations = CassetteIntegrity.check(config, false).violations();
        assertEquals(1, violations.size());
        assertEquals(fileFor(config, "plan") + " [cassettes] op 'plan': volatile field response.id is still in the"
                + " cassette. Remove it (mvn resilience:record strips volatile paths before writing)",
                violations.get(0).line());
    }

    @Test
    void an_op_without_a_cassette_is_reported_once_against_the_config() throws Exception {
        HarnessConfig config = project("plan");
        Path expected = fileFor(config, "patch");
        List<Violation> violations = CassetteIntegrity.check(config, false).violations();
        assertEquals(1, violations.size(), "patch is in two scenarios but missing once");
        assertEquals(dir.resolve("resilience.yaml") + ":6:17: scenarios[0].ops[1] [cassettes] op 'patch': no cassette"
                + " for op 'patch': looked for " + expected.getFileName() + "; the nearest recorded request is "
                + fileFor(config, "plan").getFileName() + ", which differs at op. Run mvn resilience:record to record"
                + " it", violations.get(0).line());
    }

    @Test
    void an_orphan_is_a_warning_unless_orphans_are_errors() throws Exception {
        HarnessConfig config = project("plan", "patch", "retired");
        Path orphan = fileFor(config, "retired");
        CassetteIntegrity.Report lenient = CassetteIntegrity.check(config, false);
        assertEquals(3, lenient.checked());
        assertEquals(List.of(), lenient.violations());
        assertEquals(List.of(orphan + ": orphan cassette: no scenario op sends its request"), lenient.warnings());
        CassetteIntegrity.Report strict = CassetteIntegrity.check(config, true);
        assertEquals(List.of(), strict.warnings());
        assertEquals(List.of(orphan + " [cassettes]: orphan cassette: no scenario op sends its request. Delete it, or"
                + " run with orphans allowed"), strict.violations().stream().map(Violation::line).toList());
    }

    @Test
    void a_broken_file_is_reported_and_not_taken_for_an_orphan() throws Exception {
        HarnessConfig config = project("plan", "patch");
        Path broken = Files.writeString(cassettes().resolve("1111111111111111.json"), "{\"request\": {}}");
        CassetteIntegrity.Report report = CassetteIntegrity.check(config, true);
        assertEquals(3, report.checked());
        assertEquals(1, report.violations().size(), "a violation for the file, no orphan one besides");
        Violation v = report.violations().get(0);
        assertEquals(Invariant.CASSETTES, v.invariant());
        assertEquals(broken.toString(), v.subject());
        assertTrue(v.message().contains("has no \"response\"; a cassette is {\"request\": {...}, \"response\": {...}}"),
                v.message());
    }

    @Test
    void an_oversized_file_is_reported_with_its_size() throws Exception {
        HarnessConfig config = project("plan", "patch");
        Path big = cassettes().resolve("2222222222222222.json");
        try (var raf = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            raf.setLength(dev.resilienceharness.cassette.CassetteReader.MAX_BYTES + 1);
        }
        List<Violation> violations = CassetteIntegrity.check(config, false).violations();
        assertEquals(1, violations.size());
        assertEquals(big.toString(), violations.get(0).subject());
        assertEquals("is 16777217 bytes, over the 16777216-byte (16 MiB) limit for a cassette (no real response is"
                + " that large); it was not read", violations.get(0).message());
    }

    @Test
    void a_file_that_does_not_parse_is_reported_with_its_line_and_column() throws Exception {
        HarnessConfig config = project("plan", "patch");
        Path truncated = Files.writeString(cassettes().resolve("3333333333333333.json"),
                "{\"request\": {},\n \"response\": ");
        Path shapeless = Files.writeString(cassettes().resolve("4444444444444444.json"), "{\"request\": {}}");
        List<Violation> violations = CassetteIntegrity.check(config, false).violations();
        assertEquals(2, violations.size());
        Violation parse = violations.get(0);
        assertTrue(parse.message().startsWith("is not valid JSON"), parse.message());
        assertTrue(parse.line().startsWith(truncated + ":2:"), parse.line());
        Violation shape = violations.get(1);
        assertTrue(shape.message().startsWith("has no \"response\""), shape.message());
        assertTrue(shape.line().startsWith(shapeless + " [cassettes]: has no \"response\""), shape.line());
    }
}
