package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.clients.tck.RehearsalProject;
import dev.resilienceharness.clients.tck.ScriptedProvider;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.McpRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.ToolRecord;
import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.json.Json;
import java.nio.file.Files;
import java.util.function.UnaryOperator;
import tools.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * langchain4j-mcp's real {@code DefaultMcpClient}, made by {@link HarnessLangChain4j#mcpClient}, in scenario runs the
 * harness makes: the billing server's recorded session replayed offline, each MCP fault as this client meets it, and
 * an AiServices agent whose tools come from an {@code McpToolProvider}, judged by {@code side_effects} and the
 * scenario's expectations.
 */
class Langchain4jMcpTest {

    private static final Set<Invariant> CHECKED = EnumSet.of(Invariant.EXPECTATIONS, Invariant.SIDE_EFFECTS,
            Invariant.BOUNDED_WAIT);

    private static final String YAML = """
            version: 1
            cassettes: cassettes
            policy: {max_attempts: 3, base_delay: 10ms, max_delay: 5s, max_total_wait: 5m}
            loop: %s
            mcp_servers:
              billing: {transport: streamable_http, url: "http://127.0.0.1:9/mcp"}
            tools:
              refund: {side_effects: true, idempotency_key: /idempotency_key, server: billing}
              lookup:
                server: billing
                output_schema: {type: object, required: [status], properties: {status: {type: string}}}
            scenarios:
              - {name: calm, ops: [%2$s], faults: []}
              - name: refund-timeout
                ops: [%2$s]
                faults: []
                tool_faults: {refund: [timeout]}
                expect: {status: [degraded]}
              - {name: refund-error, ops: [%2$s], faults: [], tool_faults: {refund: [error]}}
              - {name: refund-protocol-error, ops: [%2$s], faults: [], tool_faults: {refund: [{protocol_error: -32603}]}}
              - {name: refund-rate-limited, ops: [%2$s], faults: [], tool_faults: {refund: [{rate_limited: 2s}]}}
              - {name: refund-server-exit, ops: [%2$s], faults: [], tool_faults: {refund: [server_exit]}}
              - {name: refund-session-expired, ops: [%2$s], faults: [], tool_faults: {refund: [session_expired]}}
              - name: refund-session-expired-twice
                ops: [%2$s]
                faults: []
                tool_faults: {refund: [session_expired, session_expired]}
                policy: {max_total_wait: 30s}
              - {name: refund-tools-changed, ops: [%2$s], faults: [], tool_faults: {refund: [tools_changed]}}
              - {name: refund-slow, ops: [%2$s], faults: [], tool_faults: {refund: [{slow: 5s, progress: 2}]}}
              - {name: refund-hang, ops: [%2$s], faults: [], tool_faults: {refund: [hang]}}
              - name: refund-timeout-after-commit
                ops: [%2$s]
                faults: []
                tool_faults: {refund: [timeout_after_commit]}
              - {name: lookup-invalid-result, ops: [%2$s], faults: [], tool_faults: {lookup: [invalid_result]}}
            """;

    /** The billing server's session as recorded from langchain4j-mcp 1.18.1: what its client sends, verbatim. */
    private static final String SESSION = """
            {
              "version": 1,
              "server": "billing",
              "transport": "streamable-http",
              "exchanges": [
                {"request": {"method": "initialize", "params": {"capabilities": {"roots": {"listChanged": true}},
                   "clientInfo": {"name": "langchain4j", "version": "1.0"}, "protocolVersion": "2025-11-25"}},
                 "response": {"offset_ms": 8, "result": {"capabilities": {"tools": {"listChanged": true}},
                   "protocolVersion": "2025-11-25", "serverInfo": {"name": "billing", "version": "3.2"}}}},
                {"notification": {"method": "notifications/initialized"}, "from": "client", "offset_ms": 0},
                {"request": {"method": "tools/list"},
                 "response": {"offset_ms": 5, "result": {"tools": [{"name": "refund",
                   "description": "Refunds an order once per idempotency key",
                   "inputSchema": {"type": "object", "required": ["order"], "properties": {
                     "order": {"type": "string"}, "idempotency_key": {"type": "string"}}}}]}}},
                {"request": {"method": "tools/call", "params": {"arguments": {"order": "A1"}, "name": "refund"}},
                 "response": {"offset_ms": 400, "result": {"content": [{"text": "refund r-A1 issued for order A1",
                   "type": "text"}], "isError": false}}},
                {"request": {"method": "tools/call", "params": {"arguments": {"order": "A1"}, "name": "lookup"}},
                 "response": {"offset_ms": 30, "result": {"content": [{"text": "{\\"status\\":\\"shipped\\"}",
                   "type": "text"}], "structuredContent": {"status": "shipped"}, "isError": false}}},
                {"request": {"method": "tools/call", "params": {"arguments": {"idempotency_key": "call_refund",
                   "order": "A1"}, "name": "refund"}},
                 "response": {"offset_ms": 400, "result": {"content": [{"text": "refund r-A1 issued for order A1",
                   "type": "text"}], "isError": false}}}
              ]
            }
            """;

    private static final String REFUNDED = "refund r-A1 issued for order A1";

    @TempDir
    Path dir;

    private RehearsalProject project(Class<? extends AgentLoop> loop, String op) throws Exception {
        RehearsalProject project = RehearsalProject.write(dir, YAML.formatted(loop.getName(), op));
        Path sessions = dir.resolve("cassettes").resolve("mcp").resolve("billing");
        Files.createDirectories(sessions);
        Files.writeString(sessions.resolve("refund.json"), SESSION);
        return project;
    }

    private ScenarioResult direct(String scenario, McpRefundLoop loop) throws Exception {
        RehearsalProject project = project(McpRefundLoop.class, "refund");
        modelCassette(project);
        return project.replay(scenario, () -> loop, 1, CHECKED);
    }

    /** The op's model cassette: a rehearsal wants one per op, though these loops only talk to the MCP server. */
    private static void modelCassette(RehearsalProject project) throws Exception {
        new CassetteStore(project.config().cassettes(), VolatilePaths.of(project.config().volatilePaths()),
                Mode.RECORD, UnaryOperator.identity()).write(
                        (ObjectNode) Json.readTree("{\"model\":\"gpt-5-mini\",\"messages\":[{\"role\":\"user\","
                                + "\"content\":\"Refund order A1\"}]}"),
                        Json.readTree("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1767225600,"
                                + "\"model\":\"gpt-5-mini\",\"choices\":[{\"index\":0,\"message\":"
                                + ScriptedProvider.text("ok") + ",\"finish_reason\":\"stop\"}]}"), null, "refund");
    }

    private static List<McpRecord> calls(RunTrace trace) {
        return trace.mcp().stream().filter(r -> r.method().equals("tools/call")).toList();
    }

    private static String lines(ScenarioResult result) {
        return result.violations().stream().map(Violation::toString).collect(Collectors.joining("\n"));
    }

    @Test
    void theRecordedSessionIsReplayedOfflineThroughTheClient() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        ScenarioResult result = direct("calm", loop);
        assertEquals(List.of(), result.violations(), lines(result));
        assertNull(result.trace().failure());
        assertEquals(REFUNDED, loop.seen);
        RunTrace trace = result.trace();
        assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "tools/call"),
                trace.mcp().stream().map(McpRecord::method).toList());
        assertTrue(trace.mcp().stream().allMatch(r -> r.layer().equals("langchain4j-mcp")
                && r.server().equals("billing")));
        ToolRecord refund = trace.tools().get(0);
        assertEquals("refund", refund.name());
        assertTrue(refund.committed());
        assertEquals(Duration.ofMillis(400).toNanos(), refund.endNanos() - refund.atNanos(), "on the virtual clock");
    }

    @Test
    void aTimeoutIsTheClientsTimeoutTextAfterItsSixtySecondsOnTheVirtualClockAndTheRunKnowsIt() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        ScenarioResult result = direct("refund-timeout", loop);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(McpRefundLoop.TIMEOUT_TEXT, loop.seen);
        assertEquals(Status.DEGRADED, result.trace().outcomes().get(0).status());
        McpRecord call = calls(result.trace()).get(0);
        assertEquals("timeout", call.fault());
        assertEquals(McpRefundLoop.TIMEOUT_TEXT, call.answeredAsText());
        assertEquals(Duration.ofSeconds(60).toNanos(), call.endNanos() - call.atNanos(),
                "the client's toolExecutionTimeout");
        assertTrue(result.trace().mcp().stream().anyMatch(r -> r.method().equals("notifications/cancelled")));
    }

    @Test
    void aLoopThatTakesTheTimeoutTextForSuccessIsCaughtByTheScenariosExpectation() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(false);
        ScenarioResult result = direct("refund-timeout", loop);
        assertEquals(McpRefundLoop.TIMEOUT_TEXT, loop.seen);
        assertEquals(Status.OK, result.trace().outcomes().get(0).status());
        assertEquals(List.of(Invariant.EXPECTATIONS),
                result.violations().stream().map(Violation::invariant).toList(), lines(result));
    }

    @Test
    void aSlowRefundWithProgressReachesTheProgressHandlerAndAnswersLateOnTheVirtualClock() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        ScenarioResult result = direct("refund-slow", loop);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(REFUNDED, loop.seen);
        assertEquals(2, loop.progress.size(), "the client sent a progress token: it has a progress handler");
        McpRecord call = calls(result.trace()).get(0);
        assertEquals(Duration.ofMillis(5400).toNanos(), call.endNanos() - call.atNanos());
    }

    @Test
    void aShorterToolTimeoutIsWhatAHangRunsOut() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true, b -> b.toolExecutionTimeout(Duration.ofSeconds(15)));
        ScenarioResult result = direct("refund-hang", loop);
        assertEquals(McpRefundLoop.TIMEOUT_TEXT, loop.seen);
        McpRecord call = calls(result.trace()).get(0);
        assertEquals(Duration.ofSeconds(15).toNanos(), call.endNanos() - call.atNanos());
        assertEquals(McpRefundLoop.TIMEOUT_TEXT, call.answeredAsText());
    }

    @Test
    void aRefundThatTookEffectBeforeTheTimeoutIsStillTheTimeoutTextToTheLoop() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        ScenarioResult result = direct("refund-timeout-after-commit", loop);
        assertEquals(McpRefundLoop.TIMEOUT_TEXT, loop.seen);
        McpRecord call = calls(result.trace()).get(0);
        assertTrue(call.committed(), "the server refunded");
        assertEquals(McpRefundLoop.TIMEOUT_TEXT, call.answeredAsText());
        assertTrue(result.trace().tools().get(0).committed());
    }

    @Test
    void anInvalidStructuredResultReachesTheLoopUncheckedAsTheToolsAnswer() throws Exception {
        List<String> seen = new java.util.ArrayList<>();
        AgentLoop loop = run -> {
            try (var client = HarnessLangChain4j.mcpClient(run, "billing"); var scope = run.op("refund")) {
                var result = client.executeTool(dev.langchain4j.agent.tool.ToolExecutionRequest.builder()
                        .name("lookup").arguments("{\"order\":\"A1\"}").build());
                seen.add(result.isError() + " " + result.resultText());
                return List.of(dev.resilienceharness.loop.Outcome.ok("refund",
                        tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(result.resultText()), 1));
            }
        };
        RehearsalProject project = project(McpRefundLoop.class, "refund");
        modelCassette(project);
        ScenarioResult calm = project.replay("calm", () -> loop, 1, CHECKED);
        ScenarioResult broken = project.replay("lookup-invalid-result", () -> loop, 1, CHECKED);
        assertEquals(List.of(), calm.violations(), lines(calm));
        assertEquals("false {\"status\":\"shipped\"}", seen.get(0), "structuredContent before content");
        assertTrue(seen.get(1).startsWith("false "), "langchain4j-mcp does not check it against the outputSchema");
        assertTrue(!seen.get(1).equals(seen.get(0)), seen.get(1));
        assertEquals("invalid_result", calls(broken.trace()).get(0).fault());
    }

    @Test
    void anErrorResultIsAToolExecutionExceptionWithItsText() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        ScenarioResult result = direct("refund-error", loop);
        assertTrue(loop.seen.startsWith("ToolExecutionException: "), loop.seen);
        assertEquals(Status.DEGRADED, result.trace().outcomes().get(0).status());
        assertEquals("error", calls(result.trace()).get(0).fault());
        assertEquals(List.of(), result.violations(), lines(result));
    }

    @Test
    void aProtocolErrorIsAToolExecutionException() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        direct("refund-protocol-error", loop);
        assertTrue(loop.seen.startsWith("ToolExecutionException: "), loop.seen);
    }

    @Test
    void aRateLimitIsAnUnexpectedStatusTheClientDoesNotRetry() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        ScenarioResult result = direct("refund-rate-limited", loop);
        assertTrue(loop.seen.endsWith(" / Unexpected status code: 429"), loop.seen);
        assertEquals(1, calls(result.trace()).size());
    }

    @Test
    void aServerExitFailsTheCallAsADroppedConnection() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        ScenarioResult result = direct("refund-server-exit", loop);
        assertTrue(loop.seen.startsWith("ToolExecutionException: "), loop.seen);
        assertEquals(1, calls(result.trace()).size(), "no reconnect, no resend");
        assertEquals(1, result.trace().mcp().stream().filter(r -> r.method().equals("initialize")).count());
    }

    @Test
    void aSessionExpiryMakesTheClientInitializeAgainAndSendTheRefundOnceMoreWhichSideEffectsCatches()
            throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        ScenarioResult result = direct("refund-session-expired", loop);
        assertEquals(REFUNDED, loop.seen, "the loop never hears of it");
        assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "tools/call", "initialize",
                "notifications/initialized", "tools/call"),
                result.trace().mcp().stream().map(McpRecord::method).toList());
        List<Violation> sideEffects = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.SIDE_EFFECTS).toList();
        assertEquals(1, sideEffects.size(), lines(result));
        assertTrue(sideEffects.get(0).toString().contains("langchain4j-mcp"), sideEffects.get(0).toString());
    }

    @Test
    void aSecondSessionExpiryInARowIsTheTimeoutTextAfterTheClientWaitedItsSixtySecondsOnTheVirtualClock()
            throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        ScenarioResult result = direct("refund-session-expired-twice", loop);
        assertEquals(McpRefundLoop.TIMEOUT_TEXT, loop.seen);
        assertEquals(List.of(new VirtualClock.Wait(result.trace().waits().get(0).startNanos(),
                Duration.ofSeconds(60).toNanos(), "langchain4j-mcp")), result.trace().waits(),
                "the client's toolExecutionTimeout, as its own waiting");
        assertEquals(Duration.ofSeconds(60), result.trace().totalWait());
        List<Violation> waited = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.BOUNDED_WAIT).toList();
        assertEquals(1, waited.size(), lines(result));
        assertTrue(waited.get(0).toString().contains("langchain4j-mcp"), waited.get(0).toString());
    }

    @Test
    void aToolsListChangedNoticeMakesTheClientAskForItsToolsAgain() throws Exception {
        McpRefundLoop loop = new McpRefundLoop(true);
        ScenarioResult calm = direct("calm", new McpRefundLoop(true));
        ScenarioResult changed = direct("refund-tools-changed", loop);
        assertEquals(1, calm.trace().mcp().stream().filter(r -> r.method().equals("tools/list")).count(),
                "the second listTools() is answered from the client's cache");
        assertEquals(2, changed.trace().mcp().stream().filter(r -> r.method().equals("tools/list")).count());
        assertEquals(REFUNDED, loop.seen);
    }

    @Test
    void aClientATeamBuildsOnTheTransportAloneIsAnsweredTooAndAnUndeclaredServerIsNamed() throws Exception {
        List<String> seen = new java.util.ArrayList<>();
        AgentLoop loop = run -> {
            IllegalArgumentException undeclared = org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class, () -> HarnessLangChain4j.mcpTransport(run, "ledger"));
            seen.add(undeclared.getMessage());
            try (var client = dev.langchain4j.mcp.client.DefaultMcpClient.builder()
                    .transport(HarnessLangChain4j.mcpTransport(run, "billing")).autoHealthCheck(false).build();
                    var scope = run.op("refund")) {
                String text = client.executeTool(dev.langchain4j.agent.tool.ToolExecutionRequest.builder()
                        .name("refund").arguments("{\"order\":\"A1\"}").build()).resultText();
                seen.add(text);
                return List.of(dev.resilienceharness.loop.Outcome.ok("refund",
                        tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(text), 1));
            }
        };
        RehearsalProject project = project(McpRefundLoop.class, "refund");
        modelCassette(project);
        ScenarioResult result = project.replay("calm", () -> loop, 1, CHECKED);
        assertEquals(List.of(), result.violations(), lines(result));
        assertTrue(seen.get(0).contains("ledger") && seen.get(0).contains("billing"), seen.get(0));
        assertEquals(REFUNDED, seen.get(1));
        assertEquals("langchain4j-mcp", calls(result.trace()).get(0).layer());
    }

    // --- an AiServices agent whose tools come from an McpToolProvider ----------------------------------------

    private RehearsalProject agent(boolean careful, String scenario) throws Exception {
        RehearsalProject project = project(McpAgentLoop.class, "resolve");
        try (ScriptedProvider provider = ScriptedProvider.byToolResults(ApiShape.CHAT_COMPLETIONS, List.of(
                ScriptedProvider.toolCall("call_refund", "refund", "{\"order\":\"A1\"}"),
                ScriptedProvider.text(McpAgentLoop.ANSWER)))) {
            project.record(scenario, agentLoop(careful), provider.live());
        }
        return project;
    }

    private static LoopFactory agentLoop(boolean careful) {
        return () -> new McpAgentLoop(careful);
    }

    @Test
    void anAgentWhoseToolsComeFromAnMcpToolProviderIsReplayedOffline() throws Exception {
        ScenarioResult result = agent(false, "calm").replay("calm", agentLoop(false), 1, CHECKED);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(McpAgentLoop.ANSWER, result.trace().outcomes().get(0).value().asString());
        assertEquals(1, result.trace().tools().size(), "gated once, at the MCP server, not also as a local tool");
        assertEquals("langchain4j over langchain4j-mcp", result.trace().tools().get(0).layer());
        assertEquals("resolve", calls(result.trace()).get(0).op());
    }

    @Test
    void aSessionExpiryInTheMiddleOfTheRefundFailsABlindAgentUnderSideEffects() throws Exception {
        ScenarioResult result = agent(false, "refund-session-expired")
                .replay("refund-session-expired", agentLoop(false), 1, CHECKED);
        assertEquals(List.of(Invariant.SIDE_EFFECTS),
                result.violations().stream().map(Violation::invariant).toList(), lines(result));
        assertEquals(2, result.trace().tools().stream().filter(ToolRecord::committed).count());
    }

    @Test
    void aSessionExpiryInTheMiddleOfTheRefundPassesAnAgentThatSendsAnIdempotencyKey() throws Exception {
        ScenarioResult result = agent(true, "refund-session-expired")
                .replay("refund-session-expired", agentLoop(true), 1, CHECKED);
        assertEquals(List.of(), result.violations(), lines(result));
        assertEquals(2, result.trace().tools().stream().filter(ToolRecord::committed).count(),
                "the client still sent it twice; the key makes the second no new refund");
        assertEquals(McpAgentLoop.ANSWER, result.trace().outcomes().get(0).value().asString());
    }
}
