package dev.resilienceharness.testing;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.mcp.McpCassetteFiles;
import dev.resilienceharness.mcp.McpCassetteWriter;
import dev.resilienceharness.mcp.McpError;
import dev.resilienceharness.mcp.McpExchange;
import dev.resilienceharness.mcp.McpNotification;
import dev.resilienceharness.mcp.McpSession;
import dev.resilienceharness.mcp.McpTransportKind;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A throwaway project whose loop reaches the MCP server {@code billing} (a recorded session of initialize, tools/list,
 * three tools/calls and a failed prompts/get) and declares {@code files}, with a scenario per kind of MCP trouble.
 */
public final class McpProject {

    public static final String YAML = """
            version: 1
            loop: com.acme.McpAgent
            policy: {max_total_wait: 120s}
            mcp_servers:
              billing: {transport: streamable_http, url: "http://127.0.0.1:8931/mcp"}
              files: {transport: stdio, command: [node, files.js]}
            tools:
              refund: {side_effects: true, server: billing}
              keyed_refund: {side_effects: true, idempotency_key: /refund_id, server: billing}
              lookup: {server: billing}
            budget: {max_identical_tool_calls: 3}
            scenarios:
              - name: each-tool-fault
                ops: [resolve]
                tool_faults:
                  refund: [error, protocol_error, {protocol_error: -32602}, timeout, hang, {slow: 5s, progress: 2},
                           {slow: 40s, progress: 4}, {rate_limited: 2s}, invalid_result, tools_changed,
                           timeout_after_commit, none]
              - name: expiry
                ops: [resolve]
                tool_faults: {refund: [session_expired], keyed_refund: [session_expired]}
              - name: exit
                ops: [resolve]
                mcp_faults: {billing: [none, server_exit]}
              - name: session-faults
                ops: [resolve]
                mcp_faults: {billing: [{slow: 3s}, hang, rate_limited, {protocol_error: -32601}, tools_changed]}
              - name: plain
                ops: [resolve]
              - name: crash
                ops: [resolve, notify]
                faults: [none, crash]
            """;

    private McpProject() {
    }

    /** Writes the yaml, a cassette per op and one recorded session of the server billing, then loads the config. */
    public static HarnessConfig create(Path dir) throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "resolve", "notify");
        JsonNode refundArgs = Json.readTree("{\"order\": 7}");
        JsonNode keyedArgs = Json.readTree("{\"order\": 7, \"refund_id\": \"r-7\"}");
        McpSession session = new McpSession("billing", McpTransportKind.STREAMABLE_HTTP, List.of(
                McpExchange.Call.answered("initialize", Json.readTree("{\"protocolVersion\": \"2025-06-18\"}"), 20,
                        Json.readTree("{\"protocolVersion\": \"2025-06-18\", \"capabilities\": {\"tools\": {}},"
                                + " \"serverInfo\": {\"name\": \"billing\", \"version\": \"1\"}}")),
                new McpExchange.Notice(McpExchange.Sender.CLIENT, 0, "notifications/initialized", null),
                McpExchange.Call.answered("tools/list", null, 10, Json.readTree("{\"tools\": [{\"name\": \"refund\","
                        + " \"inputSchema\": {\"type\": \"object\"}, \"outputSchema\": {\"type\": \"object\","
                        + " \"required\": [\"refunded\"], \"properties\": {\"refunded\": {\"type\": \"number\"}}}},"
                        + " {\"name\": \"lookup\", \"inputSchema\": {\"type\": \"object\"}}]}")),
                new McpExchange.Call("tools/call", params("refund", refundArgs), List.of(new McpNotification(100,
                        "notifications/message", Json.readTree("{\"level\": \"info\", \"data\": \"refunding\"}"))),
                        300, Json.readTree("{\"content\": [{\"type\": \"text\", \"text\": \"refunded 12.5\"}],"
                                + " \"structuredContent\": {\"refunded\": 12.5}, \"isError\": false}"), null),
                McpExchange.Call.answered("tools/call", params("keyed_refund", keyedArgs), 300,
                        Json.readTree("{\"content\": [{\"type\": \"text\", \"text\": \"refunded r-7\"}]}")),
                McpExchange.Call.answered("tools/call", params("lookup", refundArgs), 50,
                        Json.readTree("{\"content\": [{\"type\": \"text\", \"text\": \"order 7: paid\"}]}")),
                McpExchange.Call.failed("prompts/get", Json.readTree("{\"name\": \"gone\"}"), 5,
                        new McpError(-32602, "no prompt named gone", null))));
        McpCassetteWriter.write(McpCassetteFiles.sessionFile(config.cassettes(), "billing", "session-1"), session);
        return config;
    }

    private static JsonNode params(String tool, JsonNode arguments) {
        var node = tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        node.put("name", tool);
        node.set("arguments", arguments);
        return node;
    }
}
