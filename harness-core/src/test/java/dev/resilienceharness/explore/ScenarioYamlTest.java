package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.resilienceharness.brokenloops.ForgetfulRestartLoop;
import dev.resilienceharness.brokenloops.UnboundedWaitLoop;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.policy.RetryAfterHandling;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.testing.TestProject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioYamlTest {

    static final Policy TOP = Policy.defaults(Duration.ofSeconds(30));

    @TempDir
    Path dir;

    @Test
    void a_block_has_the_violation_as_a_comment_then_the_scenario() {
        Scenario s = new Scenario("two", List.of("plan", "patch"), List.of(), Expectations.NONE, TOP, 0);
        Violation v = new Violation(Invariant.BUDGET, "explore-two-budget-1", "plan", "1 calls", "2 calls",
                "2 calls for the op", "Retry less");
        assertEquals("""
                  # explore-two-budget-1 [budget] op 'plan': 2 calls for the op (bound 1 calls, actual 2 calls). Retry less
                  - name: explore-two-budget-1
                    ops: [plan, patch]
                    faults: [quota]
                """, ScenarioYaml.block("explore-two-budget-1", s, List.of(new QuotaFault(null)), TOP, List.of(v)));
    }

    @Test
    void a_scenario_policy_is_repeated_where_it_differs_from_the_top_level_one() {
        Policy policy = TOP.withMaxAttempts(10).withMaxTotalWait(Duration.ofMillis(1500))
                .withQuota(new Policy.Quota(RetryAfterHandling.STOP, Duration.ofSeconds(1)))
                .withSchema(new Policy.Schema(0));
        Scenario s = new Scenario("w", List.of("plan"), List.of(), Expectations.NONE, policy, 0);
        assertEquals("""
                  - name: explore-w-bounded_wait-1
                    ops: [plan]
                    faults: [timeout, timeout]
                    policy: {max_attempts: 10, max_total_wait: 1500ms, quota: {with_retry_after: stop, max_retry_after: 1s}, schema: {repair_attempts: 0}}
                """, ScenarioYaml.block("explore-w-bounded_wait-1", s, List.of(TimeoutFault.INSTANCE,
                TimeoutFault.INSTANCE), TOP, List.of()));
        assertNull(ScenarioYaml.policyChanges(TOP, TOP));
    }

    @Test
    void jitter_and_a_repair_instruction_are_repeated_where_they_differ() {
        Policy policy = TOP.withJitter(dev.resilienceharness.policy.Jitter.EQUAL)
                .withSchema(new Policy.Schema(TOP.schema().repairAttempts(), "Answer with valid \"JSON\" only"));
        assertEquals("{schema: {repair_instruction: \"Answer with valid \\\"JSON\\\" only\"}, jitter: equal}",
                ScenarioYaml.policyChanges(policy, TOP));
    }

    @Test
    void every_fault_kind_is_written_as_the_config_loader_reads_it() {
        assertEquals("[none, timeout, {server_error: {status: 502}}, quota, {quota: {retry_after: \"60.001\"}},"
                + " bad_tool_call, {slow_first_token: {elapsed_ms: 2001}}, crash]", ScenarioYaml.faults(List.of(
                        NoFault.INSTANCE, TimeoutFault.INSTANCE, new ServerErrorFault(502), new QuotaFault(null),
                        new QuotaFault("60.001"), BadToolCallFault.INSTANCE, new SlowFirstTokenFault(2001),
                        CrashFault.INSTANCE)));
        assertEquals("[]", ScenarioYaml.faults(List.of()));
        assertEquals("[{latency: recorded}]", ScenarioYaml.faults(List.of(
                dev.resilienceharness.fault.RecordedLatencyFault.INSTANCE)));
    }

    @Test
    void a_scenario_wide_latency_is_repeated() {
        Scenario s = new Scenario("s", List.of("plan"), List.of(), dev.resilienceharness.config.Expectations.NONE, TOP,
                0, true);
        assertEquals("  - name: s\n    ops: [plan]\n    faults: []\n    latency: recorded\n",
                ScenarioYaml.block("s", s, List.of(), TOP, List.of()));
    }

    @Test
    void names_that_would_not_read_back_as_text_are_quoted() {
        assertEquals("plan", ScenarioYaml.scalar("plan"));
        assertEquals("explore-my_scenario.v2-budget-1", ScenarioYaml.scalar("explore-my_scenario.v2-budget-1"));
        assertEquals("\"true\"", ScenarioYaml.scalar("true"));
        assertEquals("\"no\"", ScenarioYaml.scalar("no"));
        assertEquals("\"42\"", ScenarioYaml.scalar("42"));
        assertEquals("\"plan the fix\"", ScenarioYaml.scalar("plan the fix"));
        assertEquals("\"a: b # c\"", ScenarioYaml.scalar("a: b # c"));
        assertEquals("\"say \\\"hi\\\"\\n\\\\\"", ScenarioYaml.scalar("say \"hi\"\n\\"));
        assertEquals("\"\\u0007\"", ScenarioYaml.scalar("\u0007"));
    }

    /** The printed block, pasted under the original file's scenarios, loads and breaks the same invariant again. */
    @Test
    void counterexamples_round_trip_through_the_config_loader() throws Exception {
        roundTrip(RetriesQuotaLoop::new, "two");
        roundTrip(UnboundedWaitLoop::new, "waits");
        roundTrip(ForgetfulRestartLoop::new, "two");
    }

    private void roundTrip(LoopFactory loop, String scenario) throws Exception {
        HarnessConfig config = TestProject.create(dir, ExplorerTest.YAML, "plan", "patch");
        Rehearsal rehearsal = Rehearsal.prepare(config, loop);
        Scenario original = ExplorerTest.scenario(rehearsal, scenario);
        List<Counterexample> found = new Explorer(rehearsal).explore(original, Explorer.Settings.DEFAULTS
                .withMaxCounterexamples(1)).counterexamples();
        assertEquals(1, found.size());
        Counterexample c = found.get(0);
        byte[] pasted = (ExplorerTest.YAML + c.yaml()).getBytes(StandardCharsets.UTF_8);
        HarnessConfig reloaded = ConfigLoader.load(dir.resolve("resilience.yaml"), pasted);
        Scenario loaded = ExplorerTest.scenario(Rehearsal.prepare(reloaded, loop), c.name());
        assertEquals(c.plan(), loaded.faults());
        assertEquals(original.policy(), loaded.policy());
        assertEquals(original.ops(), loaded.ops());
        List<Violation> again = Rehearsal.prepare(reloaded, loop).check(loaded, 2, Explorer.INVARIANTS).violations()
                .stream().filter(v -> v.invariant() == c.invariant()).toList();
        assertEquals(c.violations(), again, c.yaml());
    }

    @Test
    void tool_faults_are_written_in_flow_style_after_the_faults() {
        Scenario s = new Scenario("one", List.of("plan"), List.of(), Expectations.NONE, TOP, 0).withToolFaults(
                java.util.Map.of("refund", List.of(dev.resilienceharness.tool.ToolFault.NONE,
                        dev.resilienceharness.tool.ToolFault.of(
                                dev.resilienceharness.tool.ToolFault.Kind.TIMEOUT_AFTER_COMMIT),
                        dev.resilienceharness.tool.ToolFault.slow(Duration.ofMillis(1500)))));
        assertEquals("  - name: one\n    ops: [plan]\n    faults: []\n"
                + "    tool_faults: {refund: [none, timeout_after_commit, {slow: 1500ms}]}\n",
                ScenarioYaml.block("one", s, List.of(), TOP, List.of()));
        List<dev.resilienceharness.tool.ToolFault> faults = List.of(dev.resilienceharness.tool.ToolFault.Kind.ERROR,
                dev.resilienceharness.tool.ToolFault.Kind.TIMEOUT,
                dev.resilienceharness.tool.ToolFault.Kind.INVALID_RESULT).stream()
                .map(dev.resilienceharness.tool.ToolFault::of).toList();
        assertEquals("{\"send mail\": [error, timeout, invalid_result]}",
                ScenarioYaml.toolFaults(java.util.Map.of("send mail", faults)));
    }

    /** An MCP scenario's tool and session faults, every setting kept: load, write, load gives the same faults. */
    @Test
    void mcp_faults_round_trip_through_the_config_loader() throws Exception {
        String head = """
                version: 1
                loop: com.acme.Agent
                policy: {max_total_wait: 5m}
                mcp_servers:
                  billing: {transport: streamable_http, url: "http://127.0.0.1:8931/mcp"}
                tools:
                  refund: {side_effects: true, idempotency_key: /refund_id, server: billing}
                scenarios:
                """;
        String written = head + """
                  - name: s
                    ops: [resolve]
                    tool_faults: {refund: [error, {protocol_error: -32602}, protocol_error, {slow: 5s, progress: 2},
                      {rate_limited: 2s}, rate_limited, hang, session_expired, server_exit, tools_changed,
                      timeout_after_commit, {slow: 40s}]}
                    mcp_faults: {billing: [none, {protocol_error: -32001}, {slow: 2s, progress: 1},
                      {rate_limited: 1500ms}, session_expired]}
                """;
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"),
                written.getBytes(StandardCharsets.UTF_8));
        Scenario original = config.scenarios().get(0);
        String block = ScenarioYaml.block("s", original, original.faults(), config.policy(), List.of());
        assertEquals("  - name: s\n    ops: [resolve]\n    faults: []\n"
                + "    tool_faults: {refund: [error, {protocol_error: -32602}, protocol_error, {slow: 5s, progress: 2},"
                + " {rate_limited: 2s}, rate_limited, hang, session_expired, server_exit, tools_changed,"
                + " timeout_after_commit, {slow: 40s}]}\n"
                + "    mcp_faults: {billing: [none, {protocol_error: -32001}, {slow: 2s, progress: 1},"
                + " {rate_limited: 1500ms}, session_expired]}\n", block);
        Scenario loaded = ConfigLoader.load(dir.resolve("resilience.yaml"), (head + block)
                .getBytes(StandardCharsets.UTF_8)).scenarios().get(0);
        assertEquals(original.toolFaults(), loaded.toolFaults());
        assertEquals(original.mcpFaults(), loaded.mcpFaults());
    }
}
