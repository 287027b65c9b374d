package dev.resilienceharness.mcpclient.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The billing servers answer the SDK's own clients, over stdio (a child process) and Streamable HTTP (Tomcat). */
class BillingServersTest {

    @Test
    void stdioServerServesTheBillingDomainToTheSdkClient() {
        List<String> command = StdioBillingServer.command();
        ServerParameters params = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size())).build();
        exercise(new StdioClientTransport(params, McpJsonDefaults.getMapper()));
    }

    @Test
    void httpServerServesTheBillingDomainToTheSdkClient(@TempDir Path dir) throws Exception {
        try (HttpBillingServer server = HttpBillingServer.start(dir)) {
            assertEquals("127.0.0.1", server.url().getHost());
            String base = server.url().toString().substring(0, server.url().toString().length()
                    - HttpBillingServer.ENDPOINT.length());
            exercise(HttpClientStreamableHttpTransport.builder(base).endpoint(HttpBillingServer.ENDPOINT).build());
        }
    }

    private static void exercise(McpClientTransport transport) {
        List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20))
                .progressConsumer(progress::add).build()) {
            assertEquals(BillingServer.NAME, client.initialize().serverInfo().name());
            List<String> tools = client.listTools().tools().stream().map(McpSchema.Tool::name).sorted().toList();
            assertEquals(List.of("find_refund", "refund", "slow_report"), tools);

            McpSchema.CallToolResult issued = client.callTool(new McpSchema.CallToolRequest("refund",
                    Map.of("order_id", "ord-1001", "amount", 12.5, "refund_id", "rf-1")));
            assertFalse(Boolean.TRUE.equals(issued.isError()));
            assertEquals(Map.of("refund_id", "rf-1", "order_id", "ord-1001", "amount", 12.5, "status", "issued"),
                    issued.structuredContent());
            McpSchema.CallToolResult again = client.callTool(new McpSchema.CallToolRequest("refund",
                    Map.of("order_id", "ord-1001", "amount", 12.5, "refund_id", "rf-1")));
            assertEquals("already_issued", ((Map<?, ?>) again.structuredContent()).get("status"));

            McpSchema.CallToolResult found = client.callTool(new McpSchema.CallToolRequest("find_refund",
                    Map.of("order_id", "ord-1001")));
            assertEquals("refund rf-1 of 12.5 for ord-1001", text(found));
            McpSchema.CallToolResult leaky = client.callTool(new McpSchema.CallToolRequest("find_refund",
                    Map.of("order_id", BillingServer.LEAKY_ORDER)));
            assertTrue(text(leaky).contains(BillingServer.PROCESSOR_KEY));

            McpSchema.CallToolResult report = client.callTool(McpSchema.CallToolRequest.builder("slow_report")
                    .arguments(Map.of("month", "2026-11")).progressToken("report-1").build());
            assertEquals("report for 2026-11: 1 refunds", text(report));
            // The client hands its consumer each notification on its own thread: the answer can come first.
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (progress.size() < BillingServer.REPORT_STEPS && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(BillingServer.REPORT_STEPS, progress.size());
            assertEquals("report-1", progress.get(0).progressToken());

            McpSchema.ReadResourceResult policy = client.readResource(
                    new McpSchema.ReadResourceRequest(BillingServer.POLICY_URI));
            assertTrue(((McpSchema.TextResourceContents) policy.contents().get(0)).text().startsWith("Refunds"));
            McpSchema.GetPromptResult prompt = client.getPrompt(
                    new McpSchema.GetPromptRequest("refund_reply", Map.of("customer", "Ada")));
            assertEquals("Write to Ada that the refund is on its way.",
                    ((McpSchema.TextContent) prompt.messages().get(0).content()).text());
        }
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }
}
