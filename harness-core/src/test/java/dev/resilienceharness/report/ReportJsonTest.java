package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ReportJsonTest {

    static RunReport small() {
        Violation cassette = new Violation(Invariant.CASSETTES, "cassettes/x.json", null, "0123.json", "x.json",
                "the file name is not its request's fingerprint", "Rename it");
        return RunReport.builder()
                .scenario(ReportFixtures.handmade("plan-then-patch", "plan",
                        List.of(ReportFixtures.budgetViolation("plan-then-patch", "plan"))))
                .cassettes(5, List.of(cassette), List.of("cassettes/y.json: orphan cassette"))
                .secrets(5, List.of(RunReportTest.FINDING))
                .build();
    }

    /** Worked out by hand from docs reports.md; compared as text, so key order counts. */
    static final String SMALL = """
            {"summary":{"scenarios":1,"violations":3,"by_invariant":{"budget":1,"determinism":0,"partial_work":0,\
            "bounded_wait":0,"expectations":0,"cassettes":1,"secrets":1,"side_effects":0}},\
            "scenarios":[{"name":"plan-then-patch","calls":2,"call_budget":3,"total_wait_ms":10.0,\
            "wait_bound_ms":30000.0,"outcomes":[{"op":"plan","status":"ok","value":"v","attempts":2}],\
            "violations":[{"invariant":"budget","message":"plan-then-patch [budget] op 'plan': 5 calls for the op\
             (bound 3 calls, actual 5 calls). Retry less","subject":"plan-then-patch","op":"plan",\
            "bound":"3 calls","actual":"5 calls","detail":"5 calls for the op","hint":"Retry less"}],"tools":[],\
            "timeline":{"calls":[{"op":"plan","repair":0,"fault":"timeout","result":"transient","at_ms":0.0},\
            {"op":"plan","repair":0,"fault":"none","result":"ok","at_ms":10.0,"first_token_ms":420}],\
            "waits":[{"start_ms":0.0,"ms":10.0}],"restarts":[]}}],\
            "cassettes":{"checked":5,"violations":[{"invariant":"cassettes","message":"cassettes/x.json [cassettes]:\
             the file name is not its request's fingerprint (bound 0123.json, actual x.json). Rename it",\
            "subject":"cassettes/x.json","op":null,"bound":"0123.json","actual":"x.json",\
            "detail":"the file name is not its request's fingerprint","hint":"Rename it"}],\
            "warnings":["cassettes/y.json: orphan cassette"]},\
            "secrets":{"files":5,"findings":[{"file":"cassettes/a.json","line":3,"column":9,"rule":"openai-key",\
            "masked":"sk-p****","json_path":"$.request.api_key","fingerprint":"0123456789abcdef"}]}}""";

    @Test
    void a_small_report_is_exactly_the_hand_computed_document() {
        assertEquals(SMALL, Json.compact(ReportJson.toJson(small())));
    }

    @Test
    void the_written_file_is_indented_json_of_the_same_document_ending_in_a_newline() {
        String text = ReportJson.write(small());
        assertTrue(text.startsWith("{\n  \"summary\": {\n    \"scenarios\": 1,"), text);
        assertTrue(text.endsWith("}\n"));
        assertEquals(SMALL, Json.compact(Json.readTree(text)));
    }

    @Test
    void documented_keys_come_first_and_in_order_for_real_runs(@TempDir Path dir) throws Exception {
        List<ScenarioReport> scenarios = new ArrayList<>(ReportFixtures.corpus("plain"));
        scenarios.addAll(ReportFixtures.failing(dir));
        ObjectNode root = ReportJson.toJson(RunReport.builder().scenarios(scenarios).build());
        assertEquals(List.of("summary", "scenarios", "cassettes", "secrets"), keys(root));
        assertEquals(List.of("scenarios", "violations", "by_invariant"), keys(root.get("summary")));
        assertEquals(List.of("budget", "determinism", "partial_work", "bounded_wait", "expectations", "cassettes",
                "secrets", "side_effects"), keys(root.get("summary").get("by_invariant")));
        int violations = 0;
        for (JsonNode s : root.get("scenarios")) {
            assertEquals(List.of("name", "calls", "call_budget", "total_wait_ms", "wait_bound_ms", "outcomes",
                    "violations", "tools", "timeline"), keys(s));
            assertTrue(s.get("total_wait_ms").isDouble(), "total_wait_ms is a JSON number with a fraction");
            assertTrue(s.get("wait_bound_ms").isDouble());
            for (JsonNode v : s.get("violations")) {
                assertEquals(List.of("invariant", "message"), keys(v).subList(0, 2));
                violations++;
            }
        }
        assertEquals(scenarios.size(), root.get("summary").get("scenarios").asInt());
        assertEquals(violations, root.get("summary").get("violations").asInt());
        assertTrue(violations >= 3, "the failing fixtures fail");
    }

    @Test
    void exploration_comes_last_and_only_when_plans_were_explored() {
        assertFalse(ReportJson.toJson(small()).has("exploration"));
        RunReport explored = RunReport.builder().exploration(40, List.of("- name: x\n  ops: [plan]\n")).build();
        ObjectNode root = ReportJson.toJson(explored);
        assertEquals(List.of("summary", "scenarios", "cassettes", "secrets", "exploration"), keys(root));
        assertEquals("{\"plans_explored\":40,\"counterexamples\":[\"- name: x\\n  ops: [plan]\\n\"]}",
                Json.compact(root.get("exploration")));
    }

    @Test
    void reads_back_what_it_writes(@TempDir Path dir) throws Exception {
        List<ScenarioReport> scenarios = new ArrayList<>(ReportFixtures.corpus("mixed"));
        scenarios.addAll(ReportFixtures.failing(dir));
        RunReport report = RunReport.builder().scenarios(scenarios)
                .cassettes(6, small().cassettes().violations(), List.of("w"))
                .secrets(6, List.of(RunReportTest.FINDING)).exploration(3, List.of("plan")).build();
        String written = ReportJson.write(report);
        RunReport back = ReportJson.fromJson(Json.readTree(written));
        assertEquals(written, ReportJson.write(back));
        assertEquals(report.secrets(), back.secrets());
        assertEquals(report.cassettes(), back.cassettes());
        assertEquals(report.exploration(), back.exploration());
        assertEquals(report.violationsByInvariant(), back.violationsByInvariant());
        // and through Jackson's own writer, as other JVM tools would read it
        String viaJackson = Json.mapper().writeValueAsString(ReportJson.toJson(report));
        assertEquals(Json.compact(ReportJson.toJson(report)), Json.compact(Json.readTree(viaJackson)));
    }

    static List<Error> validate(JsonNode document) throws Exception {
        JsonNode schemaText;
        try (var in = ReportJsonTest.class.getResourceAsStream("/report/report.schema.json")) {
            schemaText = Json.readTree(in.readAllBytes());
        }
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(schemaText);
        return schema.validate(document);
    }

    @Test
    void real_reports_validate_against_the_schema_and_broken_ones_do_not(@TempDir Path dir) throws Exception {
        List<ScenarioReport> scenarios = new ArrayList<>(ReportFixtures.corpus("mixed"));
        scenarios.addAll(ReportFixtures.failing(dir));
        RunReport report = RunReport.builder().scenarios(scenarios)
                .cassettes(6, small().cassettes().violations(), List.of("w"))
                .secrets(6, List.of(RunReportTest.FINDING)).exploration(3, List.of("plan")).build();
        JsonNode written = Json.readTree(ReportJson.write(report));
        assertEquals(List.of(), validate(written));
        assertEquals(List.of(), validate(Json.readTree(ReportJson.write(RunReport.builder().build()))));
        ObjectNode broken = (ObjectNode) written.deepCopy();
        ((ObjectNode) broken.get("summary").get("by_invariant")).remove("secrets");
        ((ObjectNode) broken.get("scenarios").get(0)).put("total_wait_ms", "10");
        assertEquals(2, validate(broken).size(), validate(broken).toString());
    }

    static List<String> keys(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.propertyNames().forEach(out::add);
        return out;
    }
}
