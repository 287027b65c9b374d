package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.invariant.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ScenarioReportTest {

    @Test
    void withoutOutcomesKeepsEverythingButTheOutcomes() {
        Violation v = ReportFixtures.budgetViolation("s", "plan");
        ScenarioReport full = ReportFixtures.handmade("s", "plan", List.of(v));
        assertFalse(full.outcomes().isEmpty());

        ScenarioReport lean = full.withoutOutcomes();

        assertTrue(lean.outcomes().isEmpty());
        assertEquals("s", lean.name());
        assertEquals(full.calls(), lean.calls());
        assertEquals(full.callBudget(), lean.callBudget());
        assertEquals(full.totalWaitMs(), lean.totalWaitMs());
        assertEquals(full.waitBoundMs(), lean.waitBoundMs());
        assertEquals(List.of(v), lean.violations());
        assertEquals(full.timeline(), lean.timeline());
        assertEquals(full.spend(), lean.spend());
        assertFalse(full.outcomes().isEmpty(), "the original keeps its outcomes");
    }

    @Test
    void withoutOutcomesDropsTheRecordedAnswersOfCheckedScenarios() throws Exception {
        List<ScenarioReport> reports = ReportFixtures.corpus("mixed");
        boolean answers = false;
        for (ScenarioReport full : reports) {
            for (JsonNode o : full.outcomes()) {
                answers |= o.has("value") && !o.get("value").isNull();
            }
            ScenarioReport lean = full.withoutOutcomes();
            JsonNode json = lean.toJson();
            assertTrue(json.get("outcomes").isEmpty(), full.name());
            assertEquals(full.toJson().get("violations"), json.get("violations"), full.name());
            assertEquals(full.toJson().get("timeline"), json.get("timeline"), full.name());
            assertEquals(full.toJson().get("calls"), json.get("calls"), full.name());
        }
        assertTrue(answers, "the corpus's ok outcomes hold recorded answers");
    }

    @Test
    void tool_executions_are_reported_in_order_with_their_fault_result_and_commit(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        ScenarioReport twice = ReportFixtures.tools(dir).get(0);
        List<ScenarioReport.Tool> tools = twice.timeline().tools();
        // plan's refund commits and times out, the blind retry commits again; patch's refund errs, then succeeds.
        assertEquals(List.of("timeout_after_commit", "none", "error", "none"),
                tools.stream().map(ScenarioReport.Tool::fault).toList());
        assertEquals(List.of("timeout", "ok", "error", "ok"), tools.stream().map(ScenarioReport.Tool::result).toList());
        assertEquals(List.of(true, true, false, true), tools.stream().map(ScenarioReport.Tool::committed).toList());
        assertEquals(List.of("plan", "plan", "patch", "patch"), tools.stream().map(ScenarioReport.Tool::op).toList());
        ScenarioReport.Tool first = tools.get(0);
        assertEquals("refund", first.name());
        assertEquals("the loop", first.layer());
        assertEquals(0, first.incarnation());
        assertEquals(5000.0, first.endMs() - first.atMs(), "the timeout ran out the tool's 5 s on the virtual clock");
        assertEquals(tools.get(1).atMs(), first.endMs());
        assertTrue(first.round() >= 1, "the model had answered before the tool ran");
        assertTrue(twice.violations().stream().anyMatch(v -> v.invariant()
                == dev.resilienceharness.invariant.Invariant.SIDE_EFFECTS), twice.violations().toString());
        assertEquals("tool refund for op plan, round " + first.round() + ", by the loop at t="
                + HtmlReport.duration(first.atMs()) + " \u2014 fault timeout_after_commit, timeout, committed",
                first.summary());
    }

    @Test
    void tool_executions_round_trip_through_report_json_in_the_documented_shape(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        for (ScenarioReport s : ReportFixtures.tools(dir)) {
            JsonNode json = s.toJson();
            assertEquals(List.of("name", "op", "round", "layer", "fault", "result", "committed", "at_ms", "end_ms",
                    "incarnation", "after_call"), ReportJsonTest.keys(json.get("tools").get(0)));
            ScenarioReport back = ScenarioReport.fromJson(json);
            assertEquals(s.timeline(), back.timeline());
            assertEquals(json, back.toJson());
        }
        ScenarioReport none = ReportFixtures.handmade("s", "plan", List.of());
        assertTrue(none.toJson().get("tools").isEmpty(), "a run without tools writes tools: []");
        var old = none.toJson();
        old.remove("tools");
        assertEquals(List.of(), ScenarioReport.fromJson(old).timeline().tools(), "an older report reads as no tools");
    }

    @Test
    void mcp_messages_and_mcp_tools_round_trip_through_report_json(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        ScenarioReport s = ReportFixtures.mcp(dir);
        JsonNode json = s.toJson();
        assertEquals(List.of("server", "method", "op", "layer", "fault", "outcome", "committed", "at_ms", "end_ms",
                "incarnation", "after_call"), ReportJsonTest.keys(json.get("mcp").get(0)));
        assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "tools/call"),
                s.timeline().mcp().stream().map(ScenarioReport.Mcp::method).toList());
        JsonNode call = json.get("mcp").get(3);
        assertEquals("refund", call.get("tool").asString());
        assertEquals("timeout", call.get("fault").asString());
        assertEquals("no reply", call.get("outcome").asString());
        assertEquals("There was a timeout executing the tool", call.get("answered_as_text").asString());
        assertEquals(20_000.0, call.get("end_ms").asDouble() - call.get("at_ms").asDouble());
        JsonNode tool = json.get("tools").get(0);
        assertEquals("billing", tool.get("server").asString());
        assertEquals("There was a timeout executing the tool", tool.get("answered_as_text").asString());
        assertTrue(s.timeline().tools().get(0).summary().endsWith(", handed to the loop as the text \"There was a"
                + " timeout executing the tool\""), s.timeline().tools().get(0).summary());
        assertTrue(s.timeline().tools().get(0).summary().startsWith("tool refund on MCP server billing for op"
                + " resolve"), s.timeline().tools().get(0).summary());
        ScenarioReport back = ScenarioReport.fromJson(json);
        assertEquals(s.timeline(), back.timeline());
        assertEquals(json, back.toJson());
        assertFalse(ReportFixtures.handmade("s", "plan", List.of()).toJson().has("mcp"), "no MCP, no key");
    }
}
