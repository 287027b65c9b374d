package dev.resilienceharness.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CassetteIntegrityTest {

    private static final String YAML = """
            version: 1
            policy:
              max_total_wait: 15s
            scenarios:
              - name: plan-then-patch
                ops: [plan, patch]
            """;
    private static final String PLAN = "c06d109f908d3f58.json";
    private static final String PATCH = "c5f22652c3d6c3c8.json";
    private static final String REVIEW = "aed443b7af0e3ebc.json";

    @TempDir
    Path dir;

    private List<String> lines(CassetteIntegrity.Report report) {
        return report.violations().stream().map(Violation::line).map(l -> l.replace(dir.toString(), "D")).toList();
    }

    @Test
    void a_clean_folder_has_no_violations() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        CassetteIntegrity.Report report = CassetteIntegrity.check(config, false);
        assertEquals(2, report.checked());
        assertEquals(List.of(), report.violations());
        assertEquals(List.of(), report.warnings());
    }

    @Test
    void a_cassette_folder_that_is_a_file_is_an_error_that_says_so() throws Exception {
        // The folder is listed on another thread: what the listing throws still reaches the caller as it was.
        HarnessConfig config = TestProject.create(dir, YAML.replace("version: 1\n", "version: 1\ncassettes: c.json\n"));
        java.nio.file.Files.writeString(dir.resolve("c.json"), "{}");
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> CassetteIntegrity.check(config, false));
        assertTrue(e.getMessage().contains("it is a file, not a folder"), e.getMessage());
    }

    @Test
    void a_listing_taken_ahead_gives_the_same_report() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review");
        Files.writeString(config.cassettes().resolve("." + PLAN + ".1.tmp"), "{");
        Files.delete(config.cassettes().resolve(PATCH));
        CassetteIntegrity.Report listedHere = CassetteIntegrity.check(config, false);
        CassetteIntegrity.Report listedAhead = CassetteIntegrity.check(config, false, (file, bytes, parsed) -> { },
                file -> true, (cassette, size) -> { }, CassetteStore.listingAhead(config.cassettes()));
        assertEquals(2, listedAhead.checked());
        assertEquals(lines(listedHere), lines(listedAhead));
        assertEquals(listedHere.warnings(), listedAhead.warnings());
        assertEquals(2, listedAhead.warnings().size(), listedAhead.warnings().toString());
        assertEquals(listedHere.fingerprints(), listedAhead.fingerprints());
    }

    @Test
    void a_listing_taken_ahead_of_a_folder_that_is_a_file_fails_the_same_way() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML.replace("version: 1\n", "version: 1\ncassettes: c.json\n"));
        Files.writeString(dir.resolve("c.json"), "{}");
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> CassetteIntegrity.check(config, false, (file, bytes, parsed) -> { }, file -> true,
                        (cassette, size) -> { }, CassetteStore.listingAhead(config.cassettes())));
        assertTrue(e.getMessage().contains("it is a file, not a folder"), e.getMessage());
    }

    @Test
    void an_op_whose_request_differs_from_its_cassette_only_in_a_volatile_field_finds_it_by_fingerprint()
            throws Exception {
        // The pass knows most ops' cassettes by an equal request; this one only by the fingerprint of its request.
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                volatile: [request.user]
                policy:
                  max_total_wait: 15s
                requests:
                  plan: {op: plan, user: alice}
                scenarios:
                  - name: plan-only
                    ops: [plan]
                """, "plan");
        CassetteIntegrity.Report report = CassetteIntegrity.check(config, true);
        assertEquals(List.of(), report.violations());
        assertEquals(List.of(), report.warnings());
        assertEquals(java.util.Map.of("plan", PLAN.replace(".json", "")), report.fingerprints());
    }

    @Test
    void a_broken_cassette_an_op_needs_is_one_line_with_its_location_and_op_not_also_a_missing_one()
            throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        Path plan = dir.resolve("cassettes").resolve(PLAN);
        Files.writeString(plan, Files.readString(plan).substring(0, 20));
        assertEquals(List.of("D/cassettes/" + PLAN + ":3:4 [cassettes] op 'plan': is not valid JSON: the file ends"
                + " before the JSON is complete (is it truncated?). Fix the file, or delete it and run mvn"
                + " resilience:record"), lines(CassetteIntegrity.check(config, false)));
    }

    @Test
    void a_broken_orphan_has_no_op() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        Files.writeString(dir.resolve("cassettes").resolve("notes.json"), "[]");
        assertEquals(List.of("D/cassettes/notes.json [cassettes]: holds a JSON array, not an object; a cassette is"
                + " {\"request\": {...}, \"response\": {...}}. Fix the file, or delete it and run mvn resilience:record"),
                lines(CassetteIntegrity.check(config, false)));
    }

    @Test
    void a_missing_cassette_names_the_yaml_line_of_the_op_and_the_nearest_recorded_request() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "patch");
        assertEquals(List.of("D/resilience.yaml:6:11: scenarios[0].ops[0] [cassettes] op 'plan': no cassette for op"
                + " 'plan': looked for c06d109f908d3f58.json; the nearest recorded request is c5f22652c3d6c3c8.json,"
                + " which differs at op. Run mvn resilience:record to record it"),
                lines(CassetteIntegrity.check(config, false)));
    }

    @Test
    void a_misnamed_cassette_is_reported_once_and_not_also_as_an_orphan() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        Path cassettes = dir.resolve("cassettes");
        Files.move(cassettes.resolve(PLAN), cassettes.resolve("0123456789abcdef.json"));
        CassetteIntegrity.Report report = CassetteIntegrity.check(config, false);
        assertEquals(List.of("D/cassettes/0123456789abcdef.json [cassettes] op 'plan': the file name is not its"
                + " request's fingerprint (bound c06d109f908d3f58.json, actual 0123456789abcdef.json). Rename it to"
                + " c06d109f908d3f58.json, or re-record it with mvn resilience:record",
                "D/resilience.yaml:6:11: scenarios[0].ops[0] [cassettes] op 'plan': no cassette for op 'plan': looked"
                + " for c06d109f908d3f58.json; the nearest recorded request is 0123456789abcdef.json, which is the same"
                + " request under another name. Run mvn resilience:record to record it"), lines(report));
        assertEquals(List.of(), report.warnings());
    }

    @Test
    void orphans_are_warnings_or_violations() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review");
        Path review = dir.resolve("cassettes").resolve(REVIEW);
        assertEquals(List.of(review + ": orphan cassette: no scenario op sends its request"),
                CassetteIntegrity.check(config, false).warnings());
        assertEquals(List.of("D/cassettes/" + REVIEW + " [cassettes]: orphan cassette: no scenario op sends its"
                + " request. Delete it, or run with orphans allowed"), lines(CassetteIntegrity.check(config, true)));
    }

    @Test
    void a_cassette_of_a_declared_or_shared_request_is_no_orphan() throws Exception {
        Files.writeString(dir.resolve("shared.yaml"), "requests:\n  review: {op: review}\n");
        HarnessConfig config = TestProject.create(dir, YAML + "requests_from: shared.yaml\n", "plan", "patch",
                "review");
        assertEquals(List.of(), CassetteIntegrity.check(config, true).violations());
        assertEquals(List.of(), CassetteIntegrity.check(config, false).warnings());
    }

    @Test
    void beside_a_declared_request_s_cassette_an_orphan_is_still_one() throws Exception {
        Files.writeString(dir.resolve("shared.yaml"), "requests:\n  review: {op: review}\n");
        HarnessConfig config = TestProject.create(dir, YAML + "requests_from: shared.yaml\n", "plan", "patch",
                "review", "stray");
        String stray = dev.resilienceharness.cassette.CassetteStore.replaying(dir.resolve("cassettes"),
                dev.resilienceharness.json.VolatilePaths.of(List.of())).fingerprint(
                        tools.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("op", "stray"));
        CassetteIntegrity.Report report = CassetteIntegrity.check(config, false);
        assertEquals(List.of(), report.violations());
        assertEquals(List.of(dir.resolve("cassettes").resolve(stray + ".json")
                + ": orphan cassette: no scenario op sends its request"), report.warnings());
    }

    @Test
    void a_temporary_file_left_by_a_killed_write_is_not_a_cassette_but_a_warning() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        Path leftover = dir.resolve("cassettes").resolve("." + PLAN + ".5f3a9c.tmp");
        Files.writeString(leftover, "{\"request\": {\"op\"");
        CassetteIntegrity.Report report = CassetteIntegrity.check(config, true);
        assertEquals(2, report.checked());
        assertEquals(List.of(), report.violations());
        assertEquals(List.of(leftover + ": left over from a recording that was interrupted; it is not a cassette and"
                + " is never read. Delete it"), report.warnings());
    }

    @Test
    void a_volatile_field_left_in_a_cassette() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        Path plan = dir.resolve("cassettes").resolve(PLAN);
        Files.writeString(plan, Files.readString(plan).replace("\"done\"", "\"id\": \"chatcmpl-1\", \"done\""));
        assertEquals(List.of("D/cassettes/" + PLAN + " [cassettes] op 'plan': volatile field response.id is still in"
                + " the cassette. Remove it (mvn resilience:record strips volatile paths before writing)"),
                lines(CassetteIntegrity.check(config, false)));
    }

    private static final String SDK_YAML = """
            version: 1
            loop: com.acme.SdkLoop
            policy: {max_total_wait: 1s}
            scenarios:
              - name: s
                ops: [plan, patch]
            """;

    @Test
    void cassettesRecordedThroughASdkCoverTheirLabelledOpAndAreNoOrphans() throws Exception {
        HarnessConfig config = TestProject.create(dir, SDK_YAML);
        var store = dev.resilienceharness.cassette.CassetteStore.replaying(config.cassettes(),
                dev.resilienceharness.json.VolatilePaths.of(List.of()));
        var request = tools.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("model", "m");
        store.write(request, request.deepCopy(), null, "plan");
        CassetteIntegrity.Report report = CassetteIntegrity.check(config, true);
        assertEquals(1, report.violations().size(), report.violations().toString());
        Violation missing = report.violations().get(0);
        assertEquals("patch", missing.op());
        assertEquals("This op's calls come from your loop's SDK: run mvn resilience:record (loop: com.acme.SdkLoop),"
                + " which runs each scenario once with no faults and records every request no cassette answers",
                missing.hint());
        assertEquals(List.of(), report.warnings());
    }

    @Test
    void a_part_of_the_folder_is_read_and_reported_alone() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch", "review");
        Path plan = dir.resolve("cassettes").resolve(PLAN);
        Files.writeString(plan, Files.readString(plan).substring(0, 20));
        List<Path> read = new java.util.concurrent.CopyOnWriteArrayList<>();
        CassetteIntegrity.Report others = CassetteIntegrity.check(config, false, (f, bytes) -> read.add(f),
                f -> !f.getFileName().toString().equals(PLAN));
        assertEquals(2, others.checked());
        assertEquals(List.of(), others.violations(), "the broken file is another part's");
        assertEquals(List.of(dir.resolve("cassettes").resolve(REVIEW) + ": orphan cassette: no scenario op sends its"
                + " request"), others.warnings());
        assertEquals(List.of("D/cassettes/" + REVIEW + " [cassettes]: orphan cassette: no scenario op sends its"
                + " request. Delete it, or run with orphans allowed"), lines(CassetteIntegrity.check(config, true,
                        (f, bytes) -> { }, f -> f.getFileName().toString().equals(REVIEW))));
        assertEquals(2, read.size());
        CassetteIntegrity.Report mine = CassetteIntegrity.check(config, true, (f, bytes) -> { },
                f -> f.getFileName().toString().equals(PLAN));
        assertEquals(1, mine.checked());
        assertEquals(1, mine.violations().size());
    }

    @Test
    void a_missing_cassette_is_reported_by_the_part_its_file_would_be_in() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "patch");
        assertEquals(List.of(), CassetteIntegrity.check(config, false, (f, bytes) -> { },
                f -> !f.getFileName().toString().equals(PLAN)).violations());
        assertEquals(1, CassetteIntegrity.check(config, false, (f, bytes) -> { },
                f -> f.getFileName().toString().equals(PLAN)).violations().size());
    }

    /** A recording of a {@code replay: recorded} tool, written as resilience:record writes one. */
    private dev.resilienceharness.cassette.ToolRecording toolRecording(String result) throws Exception {
        return dev.resilienceharness.cassette.ToolRecordings.recording(dir.resolve("cassettes"), c -> c, null)
                .write("refund", dev.resilienceharness.json.Json.readTree("{\"order\":\"A1\"}"), result);
    }

    @Test
    void tool_recordings_are_checked_and_their_folder_is_no_stray_entry() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        toolRecording("{\"refund_id\":\"r-1\"}");
        CassetteIntegrity.Report clean = CassetteIntegrity.check(config, true);
        assertEquals(3, clean.checked(), "two cassettes and one tool recording");
        assertEquals(List.of(), clean.violations(), "tools/ is neither an orphan nor a stray entry");
        assertEquals(List.of(), clean.warnings());

        Path tools = dir.resolve("cassettes/tools");
        Files.writeString(tools.resolve("0000000000000000.json"), "{\"tool\": \"refund\", \"arguments\": {}");
        Files.copy(tools.resolve(toolRecording("{}").fingerprint() + ".json"), tools.resolve("1111111111111111.json"));
        Files.writeString(tools.resolve(".1111111111111111.json.ab.tmp"), "");

        CassetteIntegrity.Report report = CassetteIntegrity.check(config, true);
        assertEquals(5, report.checked());
        String fp = toolRecording("{}").fingerprint();
        assertEquals(List.of("D/cassettes/tools/0000000000000000.json:1:35 [cassettes]: is not valid JSON: the file ends"
                + " before the JSON is complete (is it truncated?). Fix the file, or delete it and run mvn"
                + " resilience:record",
                "D/cassettes/tools/1111111111111111.json [cassettes]: the file name is not its tool call's fingerprint"
                + " (bound " + fp + ".json, actual 1111111111111111.json). Rename it to " + fp + ".json, or delete"
                + " it and re-record it with mvn resilience:record"), lines(report));
        assertEquals(List.of(tools.resolve(".1111111111111111.json.ab.tmp") + ": " + CassetteIntegrity.LEFTOVER),
                report.warnings());
    }

    @Test
    void a_file_where_the_tools_folder_belongs_is_a_violation() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        Files.writeString(dir.resolve("cassettes/tools"), "refund");
        assertEquals(List.of("D/cassettes/tools [cassettes]: is a file, where the folder of tool recordings (replay:"
                + " recorded) belongs. Remove it from the cassette folder"),
                lines(CassetteIntegrity.check(config, false)));
    }

    @Test
    void the_pass_hands_on_each_tool_recording_it_reads_for_the_check_s_secret_scan() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        Path recording = toolRecording("r-1").file();
        List<Path> read = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        CassetteIntegrity.check(config, false, (file, bytes, parsed) -> read.add(file), file -> true,
                (cassette, size) -> { });
        assertTrue(read.contains(recording), read.toString());
        assertEquals(3, read.size());
        read.clear();
        CassetteIntegrity.check(config, false, (file, bytes, parsed) -> read.add(file),
                file -> !file.equals(recording), (cassette, size) -> { });
        assertEquals(2, read.size(), "a shard reads the tool recordings it owns only");
    }

    /** A recorded session of the MCP server {@code server}, as resilience:record writes one. */
    private Path mcpSession(String folder, String server, String name) throws Exception {
        Path file = dev.resilienceharness.mcp.McpCassetteFiles.sessionFile(dir.resolve("cassettes"), folder, name);
        dev.resilienceharness.mcp.McpCassetteWriter.write(file, new dev.resilienceharness.mcp.McpSession(server,
                dev.resilienceharness.mcp.McpTransportKind.STDIO, List.of(
                        dev.resilienceharness.mcp.McpExchange.Call.answered("tools/call",
                                dev.resilienceharness.json.Json.readTree("{\"name\": \"find_refund\"}"), 4,
                                dev.resilienceharness.json.Json.readTree("{\"content\": []}")))));
        return file;
    }

    private static final String MCP_YAML = YAML.replace("scenarios:", """
            mcp_servers:
              billing: {transport: streamable_http, url: "http://127.0.0.1:8931/mcp"}
            scenarios:""");

    @Test
    void mcp_sessions_are_checked_and_their_folder_is_no_stray_entry() throws Exception {
        HarnessConfig config = TestProject.create(dir, MCP_YAML, "plan", "patch");
        Path session = mcpSession("billing", "billing", "checkout");
        CassetteIntegrity.Report clean = CassetteIntegrity.check(config, true);
        assertEquals(3, clean.checked(), "two cassettes and one MCP session");
        assertEquals(List.of(), clean.violations(), "mcp/ is neither an orphan nor a stray entry");
        assertEquals(List.of(), clean.warnings());

        Files.writeString(session, Files.readString(session).substring(0, 40));
        mcpSession("billing", "payments", "moved");
        Files.writeString(dir.resolve("cassettes/mcp/loose.json"), "{}");
        Path leftover = dir.resolve("cassettes/mcp/billing/.checkout.json.ab.tmp");
        Files.writeString(leftover, "");

        CassetteIntegrity.Report report = CassetteIntegrity.check(config, true);
        assertEquals(4, report.checked());
        assertEquals(List.of("D/cassettes/mcp/billing/checkout.json:3:23 [cassettes]: is not valid JSON: the file"
                + " ends before the JSON is complete (is it truncated?). Fix the file, or delete it and run mvn"
                + " resilience:record",
                "D/cassettes/mcp/billing/moved.json [cassettes]: at server: names server 'payments' but lies in the"
                + " folder of server 'billing'. Fix the file, or delete it and run mvn resilience:record",
                "D/cassettes/mcp/loose.json [cassettes]: " + CassetteIntegrity.MCP_OUTSIDE_SERVER
                + ". Move it into the folder of its server, mcp/<server>/"), lines(report));
        assertEquals(List.of(leftover + ": " + CassetteIntegrity.LEFTOVER), report.warnings());
    }

    @Test
    void the_sessions_of_a_server_the_yaml_does_not_declare_are_orphans() throws Exception {
        HarnessConfig config = TestProject.create(dir, MCP_YAML, "plan", "patch");
        mcpSession("billing", "billing", "checkout");
        mcpSession("payments", "payments", "checkout");
        CassetteIntegrity.Report warned = CassetteIntegrity.check(config, false);
        assertEquals(List.of(), lines(warned));
        assertEquals(List.of(dir.resolve("cassettes/mcp/payments") + ": orphan MCP sessions: no mcp_servers entry"
                + " names server 'payments'"), warned.warnings());
        assertEquals(List.of("D/cassettes/mcp/payments [cassettes]: orphan MCP sessions: no mcp_servers entry names"
                + " server 'payments'. Declare the server under mcp_servers:, or delete the folder"),
                lines(CassetteIntegrity.check(config, true)));
    }

    @Test
    void a_file_where_the_mcp_folder_belongs_is_a_violation() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        Files.writeString(dir.resolve("cassettes/mcp"), "billing");
        assertEquals(List.of("D/cassettes/mcp [cassettes]: is a file, where the folder of MCP sessions (mcp_servers:)"
                + " belongs. Remove it from the cassette folder"), lines(CassetteIntegrity.check(config, false)));
    }

    @Test
    void the_pass_hands_on_each_mcp_session_it_reads_for_the_check_s_secret_scan() throws Exception {
        HarnessConfig config = TestProject.create(dir, MCP_YAML, "plan", "patch");
        Path session = mcpSession("billing", "billing", "checkout");
        List<Path> read = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        CassetteIntegrity.check(config, false, (file, bytes, parsed) -> read.add(file), file -> true,
                (cassette, size) -> { });
        assertTrue(read.contains(session), read.toString());
        assertEquals(3, read.size());
        read.clear();
        CassetteIntegrity.check(config, false, (file, bytes, parsed) -> read.add(file),
                file -> !file.equals(session), (cassette, size) -> { });
        assertEquals(2, read.size(), "a shard reads the MCP sessions it owns only");
    }
}
