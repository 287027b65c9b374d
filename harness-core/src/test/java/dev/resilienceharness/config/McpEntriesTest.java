package dev.resilienceharness.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.mcp.McpServer;
import dev.resilienceharness.mcp.McpTransportKind;
import dev.resilienceharness.tool.ToolFault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code mcp_servers:}, {@code server:} of a tool and {@code mcp_faults:} read strictly, errors at file:line:key. */
class McpEntriesTest {

    private static final String F = Path.of("conf", "resilience.yaml").toString();

    private static final String HEAD = """
            version: 1
            loop: com.acme.Agent
            policy: {max_total_wait: 5m}
            mcp_servers:
              billing: {transport: streamable_http, url: "http://127.0.0.1:8931/mcp"}
              files:
                transport: stdio
                command: [node, server.js, --port, 0]
                env: {LOG_LEVEL: warn, RETRIES: 3}
                working_dir: tools/files
            tools:
              refund: {side_effects: true, idempotency_key: /refund_id, server: billing}
              lookup: {}
            """;

    private static HarnessConfig load(String yaml) throws ConfigException {
        return ToolEntriesTest.load(yaml);
    }

    private static String error(String yaml) {
        return ToolEntriesTest.error(yaml);
    }

    private static String scenario(String key, String faults) {
        return HEAD + "scenarios:\n  - name: s\n    ops: [resolve]\n    " + key + ": " + faults + "\n";
    }

    @Test
    void serversAreReadWithHowARecordingReachesThem() throws ConfigException {
        HarnessConfig c = load(HEAD);
        assertEquals(List.of("billing", "files"), List.copyOf(c.mcpServers().keySet()));
        McpServer billing = c.mcpServers().get("billing");
        assertEquals(McpTransportKind.STREAMABLE_HTTP, billing.transport());
        assertEquals("http://127.0.0.1:8931/mcp", billing.url());
        assertEquals(List.of(), billing.command());
        assertEquals(5, billing.line());
        McpServer files = c.mcpServers().get("files");
        assertEquals(McpTransportKind.STDIO, files.transport());
        assertNull(files.url());
        assertEquals(List.of("node", "server.js", "--port", "0"), files.command());
        assertEquals(Map.of("LOG_LEVEL", "warn", "RETRIES", "3"), files.env());
        assertEquals("tools/files", files.workingDir());
        assertEquals(6, files.line());
        assertEquals("billing", c.tools().get("refund").server());
        assertTrue(c.tools().get("refund").mcp());
        assertFalse(c.tools().get("lookup").mcp());
        assertTrue(c.declaresTools());
    }

    @Test
    void sessionAndToolFaultsAreReadWithTheirSettings() throws ConfigException {
        HarnessConfig c = load(HEAD + "scenarios:\n  - name: s\n    ops: [resolve]\n"
                + "    mcp_faults: {billing: [none, session_expired, {slow: 2s, progress: 2}, {protocol_error: -32602},"
                + " protocol_error, {rate_limited: 3s}, rate_limited, hang, server_exit, tools_changed]}\n"
                + "    tool_faults: {refund: [error, timeout_after_commit, {progress: 1, slow: 40s}, invalid_result]}\n");
        assertEquals(List.of(ToolFault.NONE, ToolFault.of(ToolFault.Kind.SESSION_EXPIRED),
                ToolFault.slow(Duration.ofSeconds(2), 2), ToolFault.protocolError(-32602),
                ToolFault.protocolError(-32603), ToolFault.rateLimited(Duration.ofSeconds(3)),
                ToolFault.rateLimited(Duration.ofSeconds(1)), ToolFault.of(ToolFault.Kind.HANG),
                ToolFault.of(ToolFault.Kind.SERVER_EXIT), ToolFault.of(ToolFault.Kind.TOOLS_CHANGED)),
                c.scenarios().get(0).mcpFaults("billing"));
        assertEquals(List.of(), c.scenarios().get(0).mcpFaults("files"));
        assertEquals(List.of(ToolFault.of(ToolFault.Kind.ERROR), ToolFault.of(ToolFault.Kind.TIMEOUT_AFTER_COMMIT),
                ToolFault.slow(Duration.ofSeconds(40), 1), ToolFault.of(ToolFault.Kind.INVALID_RESULT)),
                c.scenarios().get(0).toolFaults("refund"));
    }

    @Test
    void aToolsServerMustBeDeclared() {
        assertEquals(F + ":12:69: tools.refund.server: MCP server 'biling' is not declared in mcp_servers; did you"
                + " mean 'billing'? The declared MCP servers are: billing, files",
                error(HEAD.replace("server: billing", "server: biling")));
        String noServers = """
                version: 1
                policy: {max_total_wait: 5m}
                tools:
                  refund: {server: billing}
                """;
        assertEquals(F + ":4:20: tools.refund.server: MCP server 'billing' is not declared in mcp_servers; declare it"
                + " first, such as mcp_servers: {billing: {transport: stdio, command: [java, -jar, server.jar]}}",
                error(noServers));
        assertEquals(F + ":12:78: tools.refund.replay: tool 'refund' is served by an MCP server, whose answers come"
                + " from its MCP cassettes; remove replay:, which is for a tool the loop runs itself",
                error(HEAD.replace("server: billing", "server: billing, replay: recorded")));
    }

    @Test
    void sessionFaultsNameADeclaredServerAndASessionKind() {
        assertEquals(F + ":17:18: scenarios[0].mcp_faults.bill: MCP server 'bill' is not declared in mcp_servers;"
                + " the declared MCP servers are: billing, files", error(scenario("mcp_faults", "{bill: [hang]}")));
        assertEquals(F + ":17:28: scenarios[0].mcp_faults.billing[0]: unknown MCP fault 'session_expird'; did you mean"
                + " 'session_expired'? The MCP session fault kinds are: none, slow, protocol_error, hang,"
                + " session_expired, server_exit, rate_limited, tools_changed",
                error(scenario("mcp_faults", "{billing: [session_expird]}")));
        assertEquals(F + ":17:28: scenarios[0].mcp_faults.billing[0]: the fault timeout_after_commit happens to one"
                + " tool's calls, not to a session; put it under tool_faults: for a tool declared with server: billing,"
                + " or use one of the session faults: none, slow, protocol_error, hang, session_expired, server_exit,"
                + " rate_limited, tools_changed", error(scenario("mcp_faults", "{billing: [timeout_after_commit]}")));
        assertEquals(F + ":17:29: scenarios[0].mcp_faults.billing[0].hang: the fault hang takes no settings; write it"
                + " bare: hang", error(scenario("mcp_faults", "{billing: [{hang: 2s}]}")));
        assertEquals(F + ":17:45: scenarios[0].mcp_faults.billing[0].protocol_error: expected a JSON-RPC error code,"
                + " such as -32602, got the text 'bad'", error(scenario("mcp_faults", "{billing: [{protocol_error: bad}]}")));
        assertEquals(F + ":17:49: scenarios[0].mcp_faults.billing[0].progress: expected an integer of at least 0, got"
                + " the text 'some'", error(scenario("mcp_faults", "{billing: [{slow: 1s, progress: some}]}")));
        assertEquals(F + ":17:39: scenarios[0].mcp_faults.billing[0].steps: 'steps' is not a setting of slow; write"
                + " {slow: 5s} or, for an MCP tool, {slow: 5s, progress: 2}",
                error(scenario("mcp_faults", "{billing: [{slow: 1s, steps: 2}]}")));
    }

    @Test
    void anMcpFaultOnALocalToolSaysToDeclareItsServer() {
        assertEquals(F + ":17:28: scenarios[0].tool_faults.lookup[0]: the fault session_expired happens to an MCP"
                + " server, and tool 'lookup' is not served by one; declare server: under tools.lookup to name its MCP"
                + " server, or use one of: none, error, timeout, slow, invalid_result, timeout_after_commit",
                error(scenario("tool_faults", "{lookup: [session_expired]}")));
        assertEquals(F + ":17:39: scenarios[0].tool_faults.lookup[0].progress: the fault {slow: ..., progress: ...}"
                + " happens to an MCP server, and tool 'lookup' is not served by one; declare server: under"
                + " tools.lookup to name its MCP server, or use one of: none, error, timeout, slow, invalid_result,"
                + " timeout_after_commit", error(scenario("tool_faults", "{lookup: [{slow: 1s, progress: 2}]}")));
        assertEquals(F + ":17:28: scenarios[0].tool_faults.refund[0]: unknown tool fault 'rate_limit'; did you mean"
                + " 'rate_limited'? The tool fault kinds are: none, error, timeout, slow, invalid_result,"
                + " timeout_after_commit, protocol_error, hang, session_expired, server_exit, rate_limited,"
                + " tools_changed", error(scenario("tool_faults", "{refund: [rate_limit]}")));
    }

    @Test
    void aServerIsReachedOneWayAndSaysSo() {
        assertEquals(F + ":5:12: mcp_servers.billing.url: missing required key 'url': the server's Streamable HTTP"
                + " endpoint, such as http://127.0.0.1:8080/mcp",
                error(HEAD.replace(", url: \"http://127.0.0.1:8931/mcp\"", "")));
        assertEquals(F + ":5:46: mcp_servers.billing.url: expected an absolute http:// or https:// URL such as"
                + " http://127.0.0.1:8080/mcp, got the text 'ftp://host/mcp'",
                error(HEAD.replace("http://127.0.0.1:8931/mcp", "ftp://host/mcp")));
        assertEquals(F + ":5:41: mcp_servers.billing.command: command is not a setting of a streamable_http server; a"
                + " stdio server's process is started with command: [...], env: and working_dir:",
                error(HEAD.replace("url: \"http://127.0.0.1:8931/mcp\"", "command: [x]")));
        assertEquals(F + ":5:24: mcp_servers.billing.transport: expected one of stdio, streamable_http, got the text"
                + " 'http'", error(HEAD.replace("transport: streamable_http", "transport: http")));
        assertEquals(F + ":7:5: mcp_servers.files.command: missing required key 'command': the server process to start,"
                + " program first, such as [java, -jar, server.jar]",
                error(HEAD.replace("    command: [node, server.js, --port, 0]\n", "")));
        assertEquals(F + ":8:5: mcp_servers.files.url: url is not a setting of a stdio server; a stdio server is"
                + " started with command: [...]", error(HEAD.replace("    command:", "    url: http://x/\n    command:")));
        assertEquals(F + ":5:3: mcp_servers.bill/ing: 'bill/ing' cannot name an MCP server: use letters, digits, '.',"
                + " '_' and '-', starting with a letter or digit, at most 100 characters (it names the server's"
                + " cassette folder)", error(HEAD.replace("billing: {", "bill/ing: {")));
    }
}
