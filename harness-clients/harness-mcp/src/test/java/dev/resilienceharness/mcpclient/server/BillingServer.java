package dev.resilienceharness.mcpclient.server;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The small billing domain the MCP tests talk to, served by a real MCP Java SDK server over any transport: a
 * read-only {@code find_refund}, a side-effecting {@code refund} with an output schema, a {@code slow_report} that
 * reports progress when asked with a progress token, the refund policy as a resource and a reply prompt.
 */
public final class BillingServer {

    /** The name the server gives itself in {@code initialize}. */
    public static final String NAME = "billing";

    /** The uri of the refund policy resource. */
    public static final String POLICY_URI = "billing://policy/refunds";

    /** An order whose refund note carries the payment processor's key, as a careless backend might return it. */
    public static final String LEAKY_ORDER = "ord-2002";

    /** The processor key in {@link #LEAKY_ORDER}'s note; built here so that no scanner flags this source file. */
    public static final String PROCESSOR_KEY = "sk_" + "live_" + "R3fundDesk0nly9Qm4Zt7Lw2Xc";

    /** How many progress notifications {@code slow_report} sends when it is asked with a progress token. */
    public static final int REPORT_STEPS = 3;

    private static final String REFUND_OUTPUT_SCHEMA = """
            {"type": "object",
             "properties": {
               "refund_id": {"type": "string"},
               "order_id": {"type": "string"},
               "amount": {"type": "number"},
               "status": {"type": "string", "enum": ["issued", "already_issued"]}},
             "required": ["refund_id", "order_id", "amount", "status"]}""";

    private final McpJsonMapper json = McpJsonDefaults.getMapper();
    private final Map<String, Map<String, Object>> refundsById = new ConcurrentHashMap<>();
    private final long reportStepMillis;

    /** A server whose {@code slow_report} takes {@code reportStepMillis} per step, in real time. */
    public BillingServer(long reportStepMillis) {
        this.reportStepMillis = reportStepMillis;
    }

    /** Adds this domain's tools, resource and prompt to an SDK server specification. */
    public <S extends McpServer.SyncSpecification<S>> McpServer.SyncSpecification<S> serve(
            McpServer.SyncSpecification<S> spec) {
        return spec.serverInfo(NAME, "1.0.0")
                .capabilities(McpSchema.ServerCapabilities.builder()
                        .tools(true).resources(false, false).prompts(false).build())
                .tools(findRefund(), refund(), slowReport())
                .resources(policy())
                .prompts(replyPrompt());
    }

    private SyncToolSpecification findRefund() {
        McpSchema.Tool tool = McpSchema.Tool.builder()
                .name("find_refund")
                .description("Looks up the refund issued for an order, if any.")
                .inputSchema(json, """
                        {"type": "object", "properties": {"order_id": {"type": "string"}},
                         "required": ["order_id"]}""")
                .annotations(McpSchema.ToolAnnotations.builder().readOnlyHint(true).build())
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler(this::onFindRefund).build();
    }

    private CallToolResult onFindRefund(McpSyncServerExchange exchange, CallToolRequest request) {
        String order = String.valueOf(request.arguments().get("order_id"));
        Map<String, Object> found = refundsById.values().stream()
                .filter(r -> r.get("order_id").equals(order)).findFirst().orElse(null);
        StringBuilder text = new StringBuilder(found == null ? "no refund for " + order
                : "refund " + found.get("refund_id") + " of " + found.get("amount") + " for " + order);
        if (LEAKY_ORDER.equals(order)) {
            text.append("; processor note: retried with key ").append(PROCESSOR_KEY);
        }
        return CallToolResult.builder().addTextContent(text.toString()).build();
    }

    private SyncToolSpecification refund() {
        McpSchema.Tool tool = McpSchema.Tool.builder()
                .name("refund")
                .description("Refunds an amount of an order once per refund id.")
                .inputSchema(json, """
                        {"type": "object",
                         "properties": {"order_id": {"type": "string"}, "amount": {"type": "number"},
                                        "refund_id": {"type": "string"}},
                         "required": ["order_id", "amount", "refund_id"]}""")
                .outputSchema(json, REFUND_OUTPUT_SCHEMA)
                .annotations(McpSchema.ToolAnnotations.builder()
                        .readOnlyHint(false).destructiveHint(false).idempotentHint(true).build())
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler(this::onRefund).build();
    }

    private CallToolResult onRefund(McpSyncServerExchange exchange, CallToolRequest request) {
        Map<String, Object> args = request.arguments();
        String refundId = String.valueOf(args.get("refund_id"));
        Map<String, Object> issued = new LinkedHashMap<>();
        issued.put("refund_id", refundId);
        issued.put("order_id", String.valueOf(args.get("order_id")));
        issued.put("amount", ((Number) args.get("amount")).doubleValue());
        Map<String, Object> before = refundsById.putIfAbsent(refundId, issued);
        Map<String, Object> answer = new LinkedHashMap<>(before == null ? issued : before);
        answer.put("status", before == null ? "issued" : "already_issued");
        return CallToolResult.builder()
                .addTextContent("refund " + refundId + " " + answer.get("status"))
                .structuredContent(answer)
                .build();
    }

    private SyncToolSpecification slowReport() {
        McpSchema.Tool tool = McpSchema.Tool.builder()
                .name("slow_report")
                .description("Builds the month's refund report, step by step.")
                .inputSchema(json, """
                        {"type": "object", "properties": {"month": {"type": "string"}}, "required": ["month"]}""")
                .annotations(McpSchema.ToolAnnotations.builder().readOnlyHint(true).build())
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler(this::onSlowReport).build();
    }

    private CallToolResult onSlowReport(McpSyncServerExchange exchange, CallToolRequest request) {
        Object token = request.progressToken();
        for (int step = 1; step <= REPORT_STEPS; step++) {
            pause();
            if (token != null) {
                exchange.progressNotification(new McpSchema.ProgressNotification(
                        token, step, (double) REPORT_STEPS, "step " + step + " of " + REPORT_STEPS));
            }
        }
        return CallToolResult.builder()
                .addTextContent("report for " + request.arguments().get("month") + ": "
                        + refundsById.size() + " refunds")
                .build();
    }

    private void pause() {
        try {
            Thread.sleep(reportStepMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static SyncResourceSpecification policy() {
        McpSchema.Resource resource = McpSchema.Resource.builder()
                .uri(POLICY_URI).name("refund-policy").mimeType("text/markdown").build();
        return new SyncResourceSpecification(resource, (exchange, request) -> new McpSchema.ReadResourceResult(
                List.of(new McpSchema.TextResourceContents(POLICY_URI, "text/markdown",
                        "Refunds within 30 days, once per order line."))));
    }

    private static SyncPromptSpecification replyPrompt() {
        McpSchema.Prompt prompt = new McpSchema.Prompt("refund_reply", "A reply to a customer about a refund.",
                List.of(new McpSchema.PromptArgument("customer", "the customer's first name", true)));
        return new SyncPromptSpecification(prompt, (exchange, request) -> new McpSchema.GetPromptResult(
                "refund reply", List.of(new McpSchema.PromptMessage(McpSchema.Role.USER, new McpSchema.TextContent(
                        "Write to " + request.arguments().get("customer") + " that the refund is on its way.")))));
    }
}
