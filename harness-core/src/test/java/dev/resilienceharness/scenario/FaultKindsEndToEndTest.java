package dev.resilienceharness.scenario;

import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.CallRecord;
import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * Each fault kind hits the first call of [plan, patch] under the built-in loop and the default policy: what the
 * outcomes, the calls and the waits on the virtual clock come to, exactly.
 */
class FaultKindsEndToEndTest {

    private static final String PLAN_OK = "{\"op\":\"plan\",\"status\":\"ok\",\"value\":{\"done\":\"plan\"},";
    private static final String PATCH_OK = "{\"op\":\"patch\",\"status\":\"ok\",\"value\":{\"done\":\"patch\"},\"attempts\":1}";

    @TempDir
    Path dir;

    private record Result(List<String> outcomes, List<String> calls, List<Long> waitsMs, int restarts,
            List<String> violations) {
    }

    private Result rehearse(String faults) throws Exception {
        HarnessConfig config = TestProject.create(dir, yaml(faults), "plan", "patch");
        return rehearse(config);
    }

    private static String yaml(String faults) {
        return """
                version: 1
                policy: {max_total_wait: 30s}
                scenarios:
                  - name: s
                    ops: [plan, patch]
                    faults: %s
                """.formatted(faults);
    }

    private static Result rehearse(HarnessConfig config) throws Exception {
        ScenarioResult result = Rehearsal.prepare(config, LoopFactory.builtin())
                .check(scenario(config, "s"), 2, Rehearsal.RUN_INVARIANTS);
        RunTrace trace = result.trace();
        return new Result(trace.outcomes().stream().map(Outcome::toJson).map(Json::compact).toList(),
                trace.calls().stream().map(FaultKindsEndToEndTest::call).toList(),
                trace.waits().stream().map(w -> w.nanos() / 1_000_000).toList(), trace.restarts().size(),
                result.violations().stream().map(v -> v.line()).toList());
    }

    /** {@code op fault RESULT [status] [repair n] [honourable] [first token] @ms [#incarnation]}. */
    private static String call(CallRecord c) {
        return c.op() + " " + c.fault() + " " + c.result() + (c.status() == 0 ? "" : " " + c.status())
                + (c.repair() == 0 ? "" : " repair " + c.repair()) + (c.honourable() ? " honourable" : "")
                + (c.firstTokenMs() == null ? "" : " first token " + c.firstTokenMs() + "ms")
                + " @" + c.atNanos() / 1_000_000 + "ms" + (c.incarnation() == 0 ? "" : " #" + c.incarnation());
    }

    @Test
    void none() throws Exception {
        Result r = rehearse("[none]");
        assertEquals(List.of(PLAN_OK + "\"attempts\":1}", PATCH_OK), r.outcomes());
        assertEquals(List.of("plan none OK @0ms", "patch none OK @0ms"), r.calls());
        assertEquals(List.of(), r.waitsMs());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void timeout_waits_base_delay_and_retries() throws Exception {
        Result r = rehearse("[timeout]");
        assertEquals(List.of(PLAN_OK + "\"attempts\":2}", PATCH_OK), r.outcomes());
        assertEquals(List.of("plan timeout TRANSIENT @0ms", "plan none OK @10ms", "patch none OK @10ms"), r.calls());
        assertEquals(List.of(10L), r.waitsMs());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void server_error_is_transient_like_a_timeout_and_keeps_its_status() throws Exception {
        Result r = rehearse("[{server_error: {status: 502}}, {server_error: {status: 500}}, server_error]");
        assertEquals(List.of("{\"op\":\"plan\",\"status\":\"degraded\",\"reason\":\"timeout\",\"attempts\":3}",
                PATCH_OK), r.outcomes());
        assertEquals(List.of("plan server_error TRANSIENT 502 @0ms", "plan server_error TRANSIENT 500 @10ms",
                "plan server_error TRANSIENT 503 @30ms", "patch none OK @30ms"), r.calls());
        assertEquals(List.of(10L, 20L), r.waitsMs());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void quota_with_an_honourable_retry_after_waits_it_and_retries_once() throws Exception {
        Result r = rehearse("[{quota: {retry_after: \"2\"}}]");
        assertEquals(List.of(PLAN_OK + "\"attempts\":2}", PATCH_OK), r.outcomes());
        assertEquals(List.of("plan quota QUOTA 429 honourable @0ms", "plan none OK @2000ms", "patch none OK @2000ms"),
                r.calls());
        assertEquals(List.of(2000L), r.waitsMs());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void quota_without_a_header_stops_the_run_at_once() throws Exception {
        Result r = rehearse("[quota]");
        assertEquals(List.of("{\"op\":\"plan\",\"status\":\"stopped\",\"reason\":\"quota\",\"retry_after\":null,"
                + "\"attempts\":1}"), r.outcomes());
        assertEquals(List.of("plan quota QUOTA 429 @0ms"), r.calls());
        assertEquals(List.of(), r.waitsMs());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void bad_tool_call_gets_a_repair_call() throws Exception {
        Result r = rehearse("[bad_tool_call]");
        assertEquals(List.of(PLAN_OK + "\"attempts\":2}", PATCH_OK), r.outcomes());
        assertEquals(List.of("plan bad_tool_call SCHEMA @0ms", "plan none OK repair 1 @0ms", "patch none OK @0ms"),
                r.calls());
        assertEquals(List.of(), r.waitsMs());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void slow_first_token_is_kept_and_halves_concurrency() throws Exception {
        Result r = rehearse("[{slow_first_token: {elapsed_ms: 3500}}]");
        assertEquals(List.of(PLAN_OK + "\"attempts\":1,\"elapsed_ms\":3500,\"concurrency\":2}", PATCH_OK), r.outcomes());
        assertEquals(List.of("plan slow_first_token OK first token 3500ms @0ms", "patch none OK @0ms"), r.calls());
        assertEquals(List.of(), r.waitsMs(), "a slow answer is not a wait");
        assertEquals(List.of(), r.violations());
    }

    @Test
    void latency_recorded_draws_each_call_from_the_cassettes_samples_the_same_way_every_run() throws Exception {
        HarnessConfig config = TestProject.create(dir, yaml("[{latency: recorded}, {latency: recorded}]"), "plan",
                "patch");
        CassetteStore store = CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of()));
        store.write(config.request("plan"), Json.readTree("{\"done\": \"plan\"}"), new Timing(null, 300L,
                List.of(new Timing(null, 300L), new Timing(null, 4200L), new Timing(null, 4200L))));
        store.write(config.request("patch"), Json.readTree("{\"done\": \"patch\"}"), new Timing(null, 500L,
                List.of(new Timing(null, 500L))));
        Result first = rehearse(config);
        assertEquals(first, rehearse(config), "seeded: every run draws the same");
        assertEquals("patch latency OK first token 500ms @0ms", first.calls().get(1));
        String plan = first.calls().get(0);
        boolean slow = plan.equals("plan latency OK first token 4200ms @0ms");
        assertEquals(true, slow || plan.equals("plan latency OK first token 300ms @0ms"), plan);
        // Above the 2 s slow_first_token threshold the policy halves concurrency, as for the fault itself.
        assertEquals(slow, first.outcomes().get(0).contains("\"concurrency\":2"), first.outcomes().get(0));
    }

    @Test
    void a_scenario_wide_latency_recorded_draws_every_call_the_plan_does_not_fault() throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 30s}
                scenarios:
                  - name: s
                    ops: [plan, patch]
                    faults: [timeout]
                    latency: recorded
                """, "plan", "patch");
        assertEquals(true, config.scenarios().get(0).recordedLatency());
        CassetteStore store = CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of()));
        store.write(config.request("plan"), Json.readTree("{\"done\": \"plan\"}"), new Timing(null, 2600L,
                List.of(new Timing(null, 2600L))));
        store.write(config.request("patch"), Json.readTree("{\"done\": \"patch\"}"), new Timing(null, 40L,
                List.of(new Timing(null, 40L))));
        Result r = rehearse(config);
        assertEquals(List.of("plan timeout TRANSIENT @0ms", "plan latency OK first token 2600ms @10ms",
                "patch latency OK first token 40ms @10ms"), r.calls());
    }

    @Test
    void latency_recorded_without_samples_answers_as_recorded() throws Exception {
        Result r = rehearse("[{latency: recorded}]");
        assertEquals(List.of("plan latency OK @0ms", "patch none OK @0ms"), r.calls());
    }

    @Test
    void a_first_token_at_the_threshold_is_not_slow() throws Exception {
        Result r = rehearse("[{slow_first_token: {elapsed_ms: 2000}}]");
        assertEquals(List.of(PLAN_OK + "\"attempts\":1}", PATCH_OK), r.outcomes());
    }

    @Test
    void crash_restarts_the_runner_which_resumes_as_if_uninterrupted() throws Exception {
        Result r = rehearse("[none, crash]");
        assertEquals(List.of(PLAN_OK + "\"attempts\":1}", PATCH_OK), r.outcomes());
        assertEquals(List.of("plan none OK @0ms", "patch crash CRASH @0ms", "patch none OK @0ms #1"), r.calls());
        assertEquals(1, r.restarts());
        assertEquals(List.of(), r.waitsMs());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void a_recorded_first_token_time_makes_the_answer_slow_without_a_fault() throws Exception {
        HarnessConfig config = TestProject.create(dir, yaml("[]"), "patch");
        CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of()))
                .write(config.request("plan"), (ObjectNode) Json.readTree("{\"done\": \"plan\"}"), new Timing(2500L, 3000L));
        Result r = rehearse(config);
        assertEquals(List.of(PLAN_OK + "\"attempts\":1,\"elapsed_ms\":2500,\"concurrency\":2}", PATCH_OK), r.outcomes());
        assertEquals(List.of("plan none OK first token 2500ms @0ms", "patch none OK @0ms"), r.calls());
    }

    @Test
    void a_recorded_tool_call_that_breaks_its_schema_is_treated_like_bad_tool_call() throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 30s}
                requests:
                  plan:
                    model: m-1
                    tools:
                      - type: function
                        function:
                          name: apply_patch
                          parameters: {type: object, required: [path, diff], additionalProperties: false,
                                       properties: {path: {type: string}, diff: {type: string}}}
                scenarios:
                  - name: s
                    ops: [plan, patch]
                """, "patch");
        CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of())).write(config.request("plan"),
                (ObjectNode) Json.readTree("{\"choices\": [{\"index\": 0, \"message\": {\"role\": \"assistant\","
                        + " \"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\":"
                        + " \"apply_patch\", \"arguments\": \"{\\\"path\\\": \\\"a.py\\\"}\"}}]}}]}"), null);
        Result r = rehearse(config);
        assertEquals(List.of("{\"op\":\"plan\",\"status\":\"degraded\",\"reason\":\"schema\",\"attempts\":2}", PATCH_OK),
                r.outcomes());
        assertEquals(List.of("plan none SCHEMA @0ms", "plan none SCHEMA repair 1 @0ms", "patch none OK @0ms"), r.calls());
        assertEquals(List.of(), r.violations());
    }
}
