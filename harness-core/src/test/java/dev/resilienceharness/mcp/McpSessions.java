package dev.resilienceharness.mcp;

import dev.resilienceharness.json.Json;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Sessions the MCP tests share: a small billing server's. */
final class McpSessions {

    private McpSessions() {
    }

    static JsonNode json(String text) {
        return Json.readTree(text.replace('\'', '"'));
    }

    static McpExchange.Call refund(int amount, String id, long ms) {
        return McpExchange.Call.answered("tools/call", json("{'name': 'refund', 'arguments': {'order': 'A-1',"
                + " 'amount': " + amount + "}}"), ms, json("{'content': [{'type': 'text', 'text': '" + id + "'}],"
                + " 'isError': false}"));
    }

    /** initialize, initialized, tools/list, a refund with progress, a list change, two refunds of the same order. */
    static McpSession billing() {
        McpExchange.Call init = McpExchange.Call.answered("initialize", json("{'protocolVersion': '2025-06-18',"
                + " 'capabilities': {}, 'clientInfo': {'name': 'agent', 'version': '1'}}"), 12,
                json("{'protocolVersion': '2025-06-18', 'capabilities': {'tools': {'listChanged': true}},"
                        + " 'serverInfo': {'name': 'billing', 'version': '2.1'}}"));
        McpExchange.Notice initialized = new McpExchange.Notice(McpExchange.Sender.CLIENT, 0,
                "notifications/initialized", null);
        McpExchange.Call list = McpExchange.Call.answered("tools/list", null, 5,
                json("{'tools': [{'name': 'refund', 'inputSchema': {'type': 'object'}}]}"));
        McpExchange.Call slow = new McpExchange.Call("tools/call", json("{'name': 'refund', 'arguments':"
                + " {'order': 'B-2', 'amount': 5}, '_meta': {'progressToken': 7}}"), List.of(
                new McpNotification(100, "notifications/progress", json("{'progressToken': 7, 'progress': 1,"
                        + " 'total': 2}")),
                new McpNotification(100, "notifications/message", json("{'level': 'info', 'data': 'half'}")),
                new McpNotification(900, "notifications/progress", json("{'progressToken': 7, 'progress': 2,"
                        + " 'total': 2}"))), 1500, json("{'content': [], 'isError': false}"), null);
        McpExchange.Notice changed = new McpExchange.Notice(McpExchange.Sender.SERVER, 40,
                "notifications/tools/list_changed", null);
        return new McpSession("billing", McpTransportKind.STDIO, List.of(init, initialized, list, slow, changed,
                refund(30, "r-1", 80), refund(30, "r-2", 90),
                McpExchange.Call.failed("tools/call", json("{'name': 'refund', 'arguments': {'order': 'Z'}}"), 3,
                        new McpError(-32602, "unknown order", json("{'order': 'Z'}")))));
    }
}
