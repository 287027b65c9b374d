package com.example.agent;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The team's billing tool server, on the MCP Java SDK over stdio: {@code refund} (side-effecting) and
 * {@code find_refund} (read-only) in front of {@link Billing}. The rehearsal never starts it: mcp.yaml's scenarios are
 * answered from its recorded session in cassettes-mcp/mcp/billing/. {@code mvn resilience:record} starts it as a child
 * process (mcp.yaml's {@code mcp_servers.billing.command}) to record what no session answers.
 */
public final class BillingMcpServer {

    private BillingMcpServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        Billing billing = new Billing();
        McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(json))
                .serverInfo("billing", "1.0.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(refund(json, billing), findRefund(json, billing))
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(server::closeGracefully));
        new CountDownLatch(1).await();                     // serves until its client closes stdin and stops it
    }

    private static SyncToolSpecification refund(McpJsonMapper json, Billing billing) {
        McpSchema.Tool tool = McpSchema.Tool.builder()
                .name("refund")
                .description("Refund part of an order to the customer's card")
                .inputSchema(json, """
                        {"type": "object",
                         "properties": {"order_id": {"type": "string"}, "amount_cents": {"type": "integer"},
                                        "refund_id": {"type": "string"}},
                         "required": ["order_id", "amount_cents", "refund_id"]}""")
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            Map<String, Object> a = request.arguments();
            billing.refund(String.valueOf(a.get("order_id")), ((Number) a.get("amount_cents")).longValue(),
                    String.valueOf(a.get("refund_id")));
            return CallToolResult.builder().addTextContent("refund " + a.get("refund_id") + " issued").build();
        }).build();
    }

    private static SyncToolSpecification findRefund(McpJsonMapper json, Billing billing) {
        McpSchema.Tool tool = McpSchema.Tool.builder()
                .name("find_refund")
                .description("The receipt of a refund, if it went through")
                .inputSchema(json, """
                        {"type": "object", "properties": {"refund_id": {"type": "string"}},
                         "required": ["refund_id"]}""")
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) ->
                CallToolResult.builder().addTextContent(billing.receipt(String.valueOf(
                        request.arguments().get("refund_id"))).orElse("none")).build()).build();
    }
}
