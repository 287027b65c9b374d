package dev.resilienceharness.report;

import dev.resilienceharness.brokenloops.HashOrderLoop;
import dev.resilienceharness.brokenloops.RetryStormLoop;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** Scenario reports for the report tests: real runs of the test corpora, broken loops, and hand-made ones. */
final class ReportFixtures {

    private ReportFixtures() {
    }

    /** Every scenario of a test corpus, run twice with the built-in loop and checked for all run invariants. */
    static List<ScenarioReport> corpus(String name) throws Exception {
        Path yaml = Path.of(ReportFixtures.class.getResource("/corpora/" + name + "/resilience.yaml").toURI());
        HarnessConfig config = ConfigLoader.load(yaml);
        Rehearsal rehearsal = Rehearsal.prepare(config, LoopFactory.builtin());
        List<ScenarioReport> out = new ArrayList<>();
        for (Scenario s : config.scenarios()) {
            out.add(ScenarioReport.of(rehearsal.check(s, 2, Rehearsal.RUN_INVARIANTS)));
        }
        return out;
    }

    static final String FAILING_YAML = """
            version: 1
            volatile: []
            policy:
              max_attempts: 3
              base_delay: 10ms
              max_delay: 1s
              max_total_wait: 15s
              quota: {with_retry_after: retry_once, max_retry_after: 5s}
              schema: {repair_attempts: 1}
            scenarios:
              - name: retry-storm
                ops: [plan, patch]
                faults: [timeout, timeout, timeout, timeout]
              - name: drifting-outcomes
                ops: [plan, patch]
                faults: []
              - name: wrong-expectation
                ops: [plan, patch, review]
                faults: [timeout, {quota: {retry_after: "2"}}, crash, bad_tool_call]
                expect: {status: [ok, ok, degraded]}
            """;

    /**
     * Three scenarios that fail on purpose: a retry storm (budget), outcomes that drift between runs
     * (determinism, with its diff), and a wrong expectation on a run with waits, a restart and a repair.
     */
    static List<ScenarioReport> failing(Path dir) throws Exception {
        Files.createDirectories(dir);
        HarnessConfig config = TestProject.create(dir, FAILING_YAML, "plan", "patch", "review");
        List<ScenarioReport> out = new ArrayList<>();
        out.add(check(config, RetryStormLoop::new, "retry-storm"));
        out.add(check(config, HashOrderLoop::new, "drifting-outcomes"));
        out.add(check(config, LoopFactory.builtin(), "wrong-expectation"));
        return out;
    }

    static final String TOOLS_YAML = """
            version: 1
            volatile: []
            policy:
              max_attempts: 3
              base_delay: 10ms
              max_delay: 1s
              max_total_wait: 15s
              quota: {with_retry_after: retry_once, max_retry_after: 5s}
              schema: {repair_attempts: 1}
            tools:
              refund: {side_effects: true, idempotency_key: passed, timeout: 5s}
            scenarios:
              - name: refund-twice
                ops: [plan, patch]
                faults: [timeout]
                tool_faults: {refund: [timeout_after_commit, none, error]}
              - name: refund-once
                ops: [plan]
                tool_faults: {refund: [timeout]}
            """;

    /**
     * Two scenarios of a loop that runs the side-effecting tool {@code refund} after each op and retries it blindly:
     * one whose refund commits and times out, so it is made twice (side_effects), and whose next op's refund errs
     * once; and one whose first
     * refund times out before it commits.
     */
    static List<ScenarioReport> tools(Path dir) throws Exception {
        Files.createDirectories(dir);
        HarnessConfig config = TestProject.create(dir, TOOLS_YAML, "plan", "patch");
        java.util.Set<Invariant> invariants = java.util.EnumSet.copyOf(Rehearsal.RUN_INVARIANTS);
        invariants.add(Invariant.SIDE_EFFECTS);
        Rehearsal rehearsal = Rehearsal.prepare(config, dev.resilienceharness.explore.RefundLoop.blind());
        List<ScenarioReport> out = new ArrayList<>();
        for (Scenario s : config.scenarios()) {
            out.add(ScenarioReport.of(rehearsal.check(s, 2, invariants)));
        }
        return out;
    }

    /**
     * A scenario whose loop initializes the MCP server billing, lists its tools, and calls the refund, which times out
     * and which the client hands the loop as text (docs mcp.md).
     */
    static ScenarioReport mcp(Path dir) throws Exception {
        Files.createDirectories(dir);
        HarnessConfig config = dev.resilienceharness.testing.McpProject.create(dir);
        dev.resilienceharness.loop.AgentLoop loop = run -> {
            dev.resilienceharness.loop.Outcome o;
            try {
                o = dev.resilienceharness.loop.Outcome.ok("resolve", run.transport().call(run.request("resolve"))
                        .body(), 1);
            } catch (dev.resilienceharness.transport.CallFailure e) {
                throw new AssertionError(e);
            }
            dev.resilienceharness.mcp.McpEndpoint billing = run.mcp("billing", "langchain4j-mcp");
            java.time.Duration timeout = java.time.Duration.ofSeconds(20);
            billing.send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\":"
                    + " {\"protocolVersion\": \"2025-06-18\"}}", timeout);
            billing.send("{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}", timeout);
            billing.send("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\"}", timeout);
            String refund = "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\":"
                    + " {\"name\": \"refund\", \"arguments\": {\"order\": 7}}}";
            billing.send(refund, timeout);
            billing.failureAnsweredAsText(refund, "There was a timeout executing the tool");
            return List.of(o);
        };
        Scenario plain = config.scenarios().stream().filter(x -> x.name().equals("plain")).findFirst().orElseThrow()
                .withToolFaults(java.util.Map.of("refund", List.of(dev.resilienceharness.tool.ToolFault.of(
                        dev.resilienceharness.tool.ToolFault.Kind.TIMEOUT))));
        return ScenarioReport.of(Rehearsal.prepare(config, () -> loop).check(plain, 1,
                Rehearsal.runInvariants(config)));
    }

    private static ScenarioReport check(HarnessConfig config, LoopFactory loop, String name) throws Exception {
        Rehearsal rehearsal = Rehearsal.prepare(config, loop);
        Scenario s = config.scenarios().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        return ScenarioReport.of(rehearsal.check(s, 2, Rehearsal.RUN_INVARIANTS));
    }

    /** A small scenario built by hand: two calls, one 10 ms wait, two ok outcomes. */
    static ScenarioReport handmade(String name, String op, List<Violation> violations) {
        ArrayNode outcomes = JsonNodeFactory.instance.arrayNode();
        outcomes.addObject().put("op", op).put("status", "ok").put("value", "v").put("attempts", 2);
        ScenarioReport.Timeline timeline = new ScenarioReport.Timeline(
                List.of(new ScenarioReport.Call(op, 0, "timeout", "transient", 0.0, null),
                        new ScenarioReport.Call(op, 0, "none", "ok", 10.0, 420L)),
                List.of(new ScenarioReport.Wait(0.0, 10.0)), List.of());
        return new ScenarioReport(name, 2, 3, 10.0, 30000.0, outcomes, violations, timeline);
    }

    static Violation budgetViolation(String scenario, String op) {
        return new Violation(Invariant.BUDGET, scenario, op, "3 calls", "5 calls", "5 calls for the op", "Retry less");
    }

    /** {@code n} scenarios cycling through the mixed corpus's reports, renamed; every tenth one fails. */
    static RunReport generated(List<ScenarioReport> pool, int n) {
        RunReport.Builder b = RunReport.builder();
        for (int i = 0; i < n; i++) {
            ScenarioReport s = pool.get(i % pool.size());
            String name = String.format("generated-%04d-%s", i, s.name());
            List<Violation> violations = i % 10 == 0 ? List.of(budgetViolation(name, "plan")) : List.of();
            b.scenario(new ScenarioReport(name, s.calls(), s.callBudget(), s.totalWaitMs(), s.waitBoundMs(),
                    s.outcomes(), violations, s.timeline()));
        }
        return b.cassettes(6, List.of(), List.of()).secrets(6, List.of()).build();
    }
}
