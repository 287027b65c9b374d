package dev.resilienceharness.mcpclient.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.mcp.McpCassetteFiles;
import dev.resilienceharness.mcp.McpCassetteMiss;
import dev.resilienceharness.mcp.McpCassetteReader;
import dev.resilienceharness.mcp.McpCassetteWriter;
import dev.resilienceharness.mcp.McpExchange;
import dev.resilienceharness.mcp.McpReplay;
import dev.resilienceharness.mcp.McpServer;
import dev.resilienceharness.mcp.McpSession;
import dev.resilienceharness.mcp.McpTransportKind;
import dev.resilienceharness.mcp.live.LiveMcpServers;
import dev.resilienceharness.mcpclient.server.BillingServer;
import dev.resilienceharness.mcpclient.server.HttpBillingServer;
import dev.resilienceharness.mcpclient.server.StdioBillingServer;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Recording sessions from the real billing servers, a child process over stdio and Tomcat on 127.0.0.1 over
 * Streamable HTTP, then replaying them with the servers gone.
 */
class LiveRecordingTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final JsonNode INITIALIZE = json("{'protocolVersion': '2025-06-18', 'capabilities': {},"
            + " 'clientInfo': {'name': 'refund-agent', 'version': '3.1'}}");
    private static final JsonNode REFUND = json("{'name': 'refund', 'arguments': {'order_id': 'ord-1001',"
            + " 'amount': 12.5, 'refund_id': 'rf-77'}}");
    private static final JsonNode LEAKY = json("{'name': 'find_refund', 'arguments': {'order_id': '"
            + BillingServer.LEAKY_ORDER + "'}}");
    private static final JsonNode REPORT = json("{'name': 'slow_report', 'arguments': {'month': '2026-11'},"
            + " '_meta': {'progressToken': 'rep-1'}}");

    @TempDir
    Path dir;

    private final List<String> log = new CopyOnWriteArrayList<>();

    private static JsonNode json(String text) {
        return Json.readTree(text.replace('\'', '"'));
    }

    private HarnessConfig config() throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, """
                version: 1
                policy: {max_total_wait: 5m}
                """);
        return ConfigLoader.load(yaml);
    }

    private LiveMcpServers live(HarnessConfig config, McpServer server, String name) {
        return new LiveMcpServers(config.cassettes(), dir, List.of(server), name,
                RecordingRedaction.forConfig(config), log::add);
    }

    @Test
    void aStdioSessionIsRecordedFromTheChildProcessAndReplaysWithTheServerGone() throws Exception {
        HarnessConfig config = config();
        McpServer server = McpServer.stdio("billing", StdioBillingServer.command());
        McpExchange.Call refund;
        List<Long> before = children().stream().map(ProcessHandle::pid).toList();
        List<ProcessHandle> started;
        try (LiveMcpServers live = live(config, server, "checkout")) {
            live.call("billing", "initialize", INITIALIZE, TIMEOUT);
            live.notice("billing", "notifications/initialized", null);
            refund = recordBillingCalls(live);
            started = children().stream().filter(p -> !before.contains(p.pid())).toList();
            assertEquals(1, started.size(), "the server runs as a child process while recording");
        }
        assertFalse(started.get(0).isAlive(), "closing the recording stops the server process");
        assertTrue(log.contains("MCP server 'billing': billing stdio server ready"), log.toString());
        assertTrue(log.contains("MCP server 'billing': recorded 8 exchanges into cassettes/mcp/billing/checkout.json"),
                log.toString());

        McpSession session = recordedSession(config, "checkout", McpTransportKind.STDIO);
        assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call",
                "tools/call", "resources/read", "prompts/get"), methods(session));
        replays(session, refund);
    }

    @Test
    void aStreamableHttpSessionIsRecordedFromTomcatAndReplaysWithTheServerStopped() throws Exception {
        HarnessConfig config = config();
        McpExchange.Call refund;
        try (HttpBillingServer http = HttpBillingServer.start(dir.resolve("tomcat"))) {
            McpServer server = McpServer.http("billing", http.url().toString());
            try (LiveMcpServers live = live(config, server, "checkout")) {
                live.call("billing", "initialize", INITIALIZE, TIMEOUT);
                live.notice("billing", "notifications/initialized", null);
                refund = recordBillingCalls(live);
            }
        }
        McpSession session = recordedSession(config, "checkout", McpTransportKind.STREAMABLE_HTTP);
        assertEquals("initialize", session.exchanges().get(0).method());
        replays(session, refund);
    }

    /** tools/list, a refund, a leaky lookup, a report with progress, the policy and the reply prompt. */
    private static McpExchange.Call recordBillingCalls(LiveMcpServers live) throws IOException {
        McpExchange.Call tools = live.call("billing", "tools/list", null, TIMEOUT);
        assertEquals(3, tools.result().get("tools").size());
        McpExchange.Call refund = live.call("billing", "tools/call", REFUND, TIMEOUT);
        assertEquals(json("{'refund_id': 'rf-77', 'order_id': 'ord-1001', 'amount': 12.5, 'status': 'issued'}"),
                refund.result().get("structuredContent"));

        McpExchange.Call leaky = live.call("billing", "tools/call", LEAKY, TIMEOUT);
        String note = leaky.result().get("content").get(0).get("text").asString();
        assertFalse(note.contains(BillingServer.PROCESSOR_KEY), "the loop is handed the answer as replay gives it");
        assertTrue(note.contains("[REDACTED:"), note);

        McpExchange.Call report = live.call("billing", "tools/call", REPORT, TIMEOUT);
        assertEquals(BillingServer.REPORT_STEPS, report.notifications().size());
        assertEquals("notifications/progress", report.notifications().get(0).method());
        assertEquals("rep-1", report.notifications().get(0).params().get("progressToken").asString());
        assertTrue(report.responseOffsetMs() >= report.notifications().get(2).offsetMs());
        assertTrue(report.responseOffsetMs() >= 20L * BillingServer.REPORT_STEPS,
                "offsets are the real elapsed milliseconds: " + report.responseOffsetMs());

        live.call("billing", "resources/read", json("{'uri': '" + BillingServer.POLICY_URI + "'}"), TIMEOUT);
        McpExchange.Call prompt = live.call("billing", "prompts/get",
                json("{'name': 'refund_reply', 'arguments': {'customer': 'Ada'}}"), TIMEOUT);
        assertEquals("user", prompt.result().get("messages").get(0).get("role").asString());
        return refund;
    }

    private McpSession recordedSession(HarnessConfig config, String name, McpTransportKind transport)
            throws Exception {
        Path file = McpCassetteFiles.sessionFile(config.cassettes(), "billing", name);
        String text = Files.readString(file);
        assertFalse(text.contains(BillingServer.PROCESSOR_KEY), "the written session is redacted");
        McpSession session = new McpCassetteReader(config.cassettes()).read(file);
        assertEquals(transport, session.transport());
        assertEquals(text, McpCassetteWriter.text(new McpSession(session.server(), session.transport(),
                session.exchanges())), "written as McpCassetteWriter writes a session");
        return session;
    }

    /** The recorded answers come back from the file alone, matched on method and params. */
    private void replays(McpSession session, McpExchange.Call refund) throws Exception {
        McpReplay replay = new McpReplay("billing", new McpCassetteReader(
                dir.resolve("cassettes")).readServer("billing"));
        assertEquals(refund.result(), replay.answer("tools/call", REFUND).call().result());
        McpExchange.Call report = replay.answer("tools/call", json("{'name': 'slow_report', 'arguments':"
                + " {'month': '2026-11'}, '_meta': {'progressToken': 'other'}}")).call();
        assertEquals(BillingServer.REPORT_STEPS, report.notifications().size());
        assertEquals(INITIALIZE, replay.answer("initialize", INITIALIZE).call().params());
        assertThrows(McpCassetteMiss.class, () -> replay.answer("tools/call", json("{'name': 'refund',"
                + " 'arguments': {'order_id': 'ord-9', 'amount': 1, 'refund_id': 'rf-9'}}")));
        assertEquals(session.exchanges().size(), methods(session).size());
    }

    private static List<String> methods(McpSession session) {
        return session.exchanges().stream().map(McpExchange::method).toList();
    }

    private static List<ProcessHandle> children() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    }
}
