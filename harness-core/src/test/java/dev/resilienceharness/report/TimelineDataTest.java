package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.resilienceharness.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

class TimelineDataTest {

    static ScenarioReport.Call call(String op, double at) {
        return new ScenarioReport.Call(op, 0, "timeout", "transient", at, null);
    }

    static ScenarioReport.Timeline timeline(List<ScenarioReport.Call> calls, List<ScenarioReport.Wait> waits) {
        return new ScenarioReport.Timeline(calls, waits, List.of());
    }

    @Test
    void a_wait_follows_every_call_made_up_to_its_start() {
        var t = timeline(List.of(call("a", 0), call("a", 10), call("b", 30), call("b", 30)),
                List.of(new ScenarioReport.Wait(0, 10), new ScenarioReport.Wait(10, 20)));
        assertArrayEquals(new int[] {0, 1}, TimelineData.waitPlacement(t));
    }

    @Test
    void a_zero_wait_follows_one_call_at_its_instant() {
        var t = timeline(List.of(call("a", 0), call("a", 0), call("b", 0)),
                List.of(new ScenarioReport.Wait(0, 0)));
        assertArrayEquals(new int[] {0}, TimelineData.waitPlacement(t));
    }

    @Test
    void a_wait_before_any_call_comes_first() {
        var t = timeline(List.of(call("a", 5)), List.of(new ScenarioReport.Wait(0, 5)));
        assertArrayEquals(new int[] {-1}, TimelineData.waitPlacement(t));
    }

    @Test
    void lanes_are_ops_in_order_of_first_call_and_outcomes_point_at_them() {
        var outcomes = JsonNodeFactory.instance.arrayNode();
        outcomes.addObject().put("op", "b").put("status", "ok").put("attempts", 1);
        outcomes.addObject().put("op", "c").put("status", "stopped").put("reason", "quota").putNull("retry_after")
                .put("attempts", 1);
        var report = new ScenarioReport("s", 2, 2, 0, 1000, outcomes, List.of(),
                timeline(List.of(call("a", 0), call("b", 0)), List.of()));
        JsonNode data = TimelineData.toJson(report);
        assertEquals("[\"a\",\"b\",\"c\"]", Json.compact(data.get("ops")));
        assertEquals("[[1,\"ok\",\"\",1],[2,\"stopped\",\"quota\",1]]", Json.compact(data.get("outcomes")));
        assertEquals("[1,0,\"timeout\",\"transient\",0.0,null]", Json.compact(data.get("calls").get(1)));
    }

    @Test
    void script_text_cannot_end_the_script_block() {
        String json = Json.compact(JsonNodeFactory.instance.arrayNode().add("</script><!-- & \u2028\u2029 >"));
        String safe = TimelineData.scriptSafe(json);
        assertFalse(safe.contains("<") || safe.contains(">") || safe.contains("&"), safe);
        assertFalse(safe.contains("\u2028") || safe.contains("\u2029"), safe);
        assertEquals(Json.readTree(json), Json.readTree(safe));
    }

    @Test
    void sdkRetriesAndSdkWaitsCarryTheirLayerIntoTheTimelineAndReportJson() {
        var calls = List.of(new ScenarioReport.Call("plan", 0, "quota", "quota", 0, null, "openai-java 4.105.0", 0),
                new ScenarioReport.Call("plan", 0, "none", "ok", 450, null, "openai-java 4.105.0", 1));
        var waits = List.of(new ScenarioReport.Wait(0, 450, "openai-java 4.105.0"));
        var report = new ScenarioReport("s", 2, 1, 450, 1000, JsonNodeFactory.instance.arrayNode(), List.of(),
                new ScenarioReport.Timeline(calls, waits, List.of()));
        JsonNode data = TimelineData.toJson(report);
        assertEquals("[0,0,\"none\",\"ok\",450.0,null,\"openai-java 4.105.0\",1]",
                Json.compact(data.get("calls").get(1)));
        assertEquals("openai-java 4.105.0", data.get("waits").get(0).get(3).asString());
        JsonNode json = report.toJson();
        assertEquals(1, json.get("timeline").get("calls").get(1).get("sdk_retry").asInt());
        assertEquals("openai-java 4.105.0", json.get("timeline").get("waits").get(0).get("by").asString());
        assertEquals(report.timeline(), ScenarioReport.fromJson(json).timeline());
    }

    @Test
    void a_streamed_call_carries_its_events_and_where_it_was_cut() {
        ScenarioReport.Stream cut = new ScenarioReport.Stream(0, "stream_cut", "cut", List.of(100.0, 150.0, 200.0),
                200.0, 8);
        var t = new ScenarioReport.Timeline(List.of(call("plan", 0), call("plan", 400)), List.of(), List.of(),
                List.of(cut));
        ScenarioReport s = new ScenarioReport("s", 2, 3, 0, 1000, JsonNodeFactory.instance.arrayNode(), List.of(), t);
        assertEquals("[[0,\"cut\",[100.0,150.0,200.0],200.0,\"first event at t=100 ms, stream cut after 3 events at"
                + " t=200 ms\"]]", Json.compact(TimelineData.toJson(s).get("streams")));
        assertEquals(t, ScenarioReport.fromJson(s.toJson()).timeline(), "report.json reads its streams back");
        assertFalse(TimelineData.toJson(new ScenarioReport("s", 0, 0, 0, 0, JsonNodeFactory.instance.arrayNode(),
                List.of(), timeline(List.of(), List.of()))).has("streams"), "no streams key without streams");
    }

    @Test
    void each_ending_is_said_in_words() {
        assertEquals("first event at t=3.5 s, stream stalled after 2 events, read timed out at t=63.6 s",
                new ScenarioReport.Stream(0, "stream_stall", "stalled", List.of(3500.0, 3600.0), 63_600.0, 8)
                        .summary());
        assertEquals("first event at t=10 ms, error event after 2 events at t=30 ms",
                new ScenarioReport.Stream(0, "stream_error", "error_event", List.of(10.0, 20.0, 30.0), 30.0, 3)
                        .summary());
        assertEquals("first event at t=10 ms, 2 events", new ScenarioReport.Stream(0, "none", "done",
                List.of(10.0, 20.0), null, 2).summary());
    }

    @Test
    void tools_go_into_their_op_lane_after_the_call_before_them(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        ScenarioReport twice = ReportFixtures.tools(dir).get(0);
        JsonNode data = Json.readTree(TimelineData.forScript(twice).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        JsonNode tools = data.get("tools");
        assertEquals(twice.timeline().tools().size(), tools.size());
        JsonNode first = tools.get(0);
        assertEquals(List.of("plan", "patch"), List.of(data.get("ops").get(0).asString(),
                data.get("ops").get(1).asString()));
        assertEquals(0, first.get(0).asInt(), "plan's lane");
        assertEquals("refund", first.get(1).asString());
        assertEquals("timeout_after_commit", first.get(2).asString());
        assertEquals("timeout", first.get(3).asString());
        assertEquals(twice.timeline().tools().get(0).afterCall(), first.get(6).asInt());
        assertEquals(true, first.get(7).asBoolean());
        assertEquals(twice.timeline().tools().get(0).summary(), first.get(8).asString());
        assertEquals(1, tools.get(2).get(0).asInt(), "patch's refund in patch's lane");
        assertFalse(Json.readTree(TimelineData.forScript(ReportFixtures.handmade("s", "plan", List.of()))
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)).has("tools"), "no tools, no key");
    }
}
