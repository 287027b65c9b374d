package dev.resilienceharness.mcpclient.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.mcp.McpCassetteFiles;
import dev.resilienceharness.mcpclient.HarnessMcp;
import dev.resilienceharness.mcpclient.server.BillingServer;
import dev.resilienceharness.mcpclient.server.HttpBillingServer;
import dev.resilienceharness.mcpclient.server.StdioBillingServer;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.SetupException;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.RunTrace;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * {@code mvn resilience:record}'s pass through a loop whose MCP Java SDK clients reach two real billing servers, one
 * over Streamable HTTP (Tomcat on 127.0.0.1) and one over stdio (a child process): what no session answers goes to
 * them, each session is written redacted, and the scenario then replays with both servers gone.
 */
class RecordThroughLoopTest {

    private static final byte[] ASK = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"refund ord-1001\"}]}"
            .getBytes(StandardCharsets.UTF_8);
    private static final String DECIDED = "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"refund 12.5\"},\"finish_reason\":\"stop\"}]}";

    @TempDir
    Path dir;

    private final List<String> log = new CopyOnWriteArrayList<>();

    /** The agent: a refund through the billing server, a lookup through the ledger, each answer's text kept. */
    private static AgentLoop agent(List<String> seen) {
        return run -> {
            try (var scope = run.op("resolve")) {
                HttpAnswer answer = run.http().exchange(new HttpAttempt("acme-sdk 1.0", "POST",
                        "/v1/chat/completions", Map.of(), ASK, null, 0));
                seen.add(new String(((HttpAnswer.Response) answer).body(), StandardCharsets.UTF_8));
            }
            try (McpSyncClient billing = HarnessMcp.syncClient(run, "billing");
                    McpSyncClient ledger = HarnessMcp.syncClient(run, "ledger")) {
                billing.initialize();
                McpSchema.CallToolResult refund = billing.callTool(new McpSchema.CallToolRequest("refund",
                        Map.of("order_id", "ord-1001", "amount", 12.5, "refund_id", "rf-5")));
                seen.add(String.valueOf(((Map<?, ?>) refund.structuredContent()).get("status")));
                ledger.initialize();
                McpSchema.CallToolResult lookup = ledger.callTool(new McpSchema.CallToolRequest("find_refund",
                        Map.of("order_id", BillingServer.LEAKY_ORDER)));
                seen.add(((McpSchema.TextContent) lookup.content().get(0)).text());
            }
            return List.of(Outcome.ok("resolve", null, 1));
        };
    }

    private HarnessConfig config(HttpBillingServer http) throws Exception {
        String command = StdioBillingServer.command().stream()
                .map(part -> Json.compact(JsonNodeFactory.instance.stringNode(part)))
                .collect(Collectors.joining(", ", "[", "]"));
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, """
                version: 1
                loop: com.acme.BillingAgent
                policy: {max_total_wait: 120s}
                mcp_servers:
                  billing: {transport: streamable_http, url: "%s"}
                  ledger:
                    transport: stdio
                    command: %s
                tools:
                  refund: {side_effects: true, idempotency_key: /refund_id, server: billing}
                scenarios:
                  - name: refund-flow
                    ops: [resolve]
                """.formatted(http.url(), command));
        return ConfigLoader.load(yaml);
    }

    @Test
    void theRecordingReachesBothRealServersAndTheScenarioReplaysWithThemGone() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        HarnessConfig config;
        LoopRecorder.Recording recording;
        try (HttpBillingServer http = HttpBillingServer.start(dir.resolve("tomcat"))) {
            config = config(http);
            LoopRecorder recorder = LoopRecorder.prepare(config, () -> agent(seen));
            recording = recorder.recordMissing(config.scenarios().get(0), attempt -> new HttpAnswer.Response(-1, 200,
                    Map.of("content-type", List.of("application/json")), DECIDED.getBytes(StandardCharsets.UTF_8),
                    Duration.ofMillis(30), null), RecordingRedaction.forConfig(config), null, r -> { }, log::add);
        }
        assertNull(recording.trace().failure());
        assertEquals(List.of("cassettes/mcp/billing/refund-flow.json", "cassettes/mcp/ledger/refund-flow.json"),
                recording.mcpSessions());
        assertTrue(log.contains("MCP server 'billing': recorded 3 exchanges into"
                + " cassettes/mcp/billing/refund-flow.json"), log.toString());
        assertEquals("issued", seen.get(1));
        assertTrue(seen.get(2).contains("[REDACTED:"), "the agent sees the answer as replay will give it");
        String ledger = Files.readString(McpCassetteFiles.sessionFile(config.cassettes(), "ledger", "refund-flow"));
        assertFalse(ledger.contains(BillingServer.PROCESSOR_KEY), "the written session is redacted");

        List<String> replayed = new CopyOnWriteArrayList<>();
        RunTrace replay = Rehearsal.prepare(config, () -> agent(replayed)).run(config.scenarios().get(0), null);
        assertNull(replay.failure(), "the replay reaches neither server: Tomcat is stopped, the process gone");
        assertEquals(seen, replayed);
        assertEquals(List.of(), CassetteIntegrity.check(config, true).violations());

        Path billing = McpCassetteFiles.sessionFile(config.cassettes(), "billing", "refund-flow");
        Files.writeString(billing, Files.readString(billing).replace("\"offset_ms\"", "\"offset\""));
        List<String> broken = CassetteIntegrity.check(config, true).violations().stream().map(Violation::line)
                .toList();
        assertEquals(1, broken.size(), broken.toString());
        assertTrue(broken.get(0).startsWith(billing + " [cassettes]: at exchanges[0].response.offset: "), broken.get(0));
        String failure;
        try {
            RunTrace again = Rehearsal.prepare(config, () -> agent(new CopyOnWriteArrayList<>()))
                    .run(config.scenarios().get(0), null);
            failure = again.failure() == null ? null : again.failure().message();
        } catch (SetupException e) {
            failure = e.getMessage();
        }
        assertNotNull(failure, "a broken session fails the replay");
        assertTrue(failure.contains("refund-flow.json"), failure);
    }

    /** The agent of the ledger alone: one lookup through the stdio server. */
    private static AgentLoop ledgerAgent() {
        return run -> {
            try (var scope = run.op("resolve")) {
                run.http().exchange(new HttpAttempt("acme-sdk 1.0", "POST", "/v1/chat/completions", Map.of(), ASK,
                        null, 0));
            }
            try (McpSyncClient ledger = HarnessMcp.syncClient(run, "ledger")) {
                ledger.initialize();
                ledger.callTool(new McpSchema.CallToolRequest("find_refund", Map.of("order_id", "ord-1001")));
            }
            return List.of(Outcome.ok("resolve", null, 1));
        };
    }

    private LoopRecorder.Recording record(LoopRecorder recorder, HarnessConfig config, int scenario) {
        return recorder.recordMissing(config.scenarios().get(scenario), attempt -> new HttpAnswer.Response(-1, 200,
                Map.of("content-type", List.of("application/json")), DECIDED.getBytes(StandardCharsets.UTF_8),
                Duration.ofMillis(30), null), RecordingRedaction.forConfig(config), null, r -> { }, log::add);
    }

    /** As model cassettes: a later scenario, and a later recording, is answered by the session already written. */
    @Test
    void aSessionAnEarlierScenarioWroteAnswersTheLaterOnesAndTheNextRecording() throws Exception {
        String command = StdioBillingServer.command().stream()
                .map(part -> Json.compact(JsonNodeFactory.instance.stringNode(part)))
                .collect(Collectors.joining(", ", "[", "]"));
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, """
                version: 1
                loop: com.acme.LedgerAgent
                policy: {max_total_wait: 120s}
                mcp_servers:
                  ledger:
                    transport: stdio
                    command: %s
                scenarios:
                  - name: first
                    ops: [resolve]
                  - name: second
                    ops: [resolve]
                """.formatted(command));
        HarnessConfig config = ConfigLoader.load(yaml);
        LoopRecorder recorder = LoopRecorder.prepare(config, RecordThroughLoopTest::ledgerAgent);
        assertEquals(List.of("cassettes/mcp/ledger/first.json"), record(recorder, config, 0).mcpSessions());
        LoopRecorder.Recording second = record(recorder, config, 1);
        assertNull(second.trace().failure());
        assertEquals(List.of(), second.mcpSessions(), log.toString());

        LoopRecorder later = LoopRecorder.prepare(config, RecordThroughLoopTest::ledgerAgent);
        assertEquals(List.of(), record(later, config, 0).mcpSessions(), log.toString());
        assertEquals(List.of(), record(later, config, 1).mcpSessions(), log.toString());
        try (var files = Files.list(config.cassettes().resolve("mcp").resolve("ledger"))) {
            assertEquals(List.of("first.json"), files.map(f -> f.getFileName().toString()).toList());
        }
    }
}
