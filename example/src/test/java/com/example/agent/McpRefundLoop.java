package com.example.agent;

import dev.resilienceharness.clients.openai.HarnessOpenAi;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.mcpclient.HarnessMcp;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The refund agent with its billing behind the team's MCP tool server (mcp.yaml): the model still asks for
 * {@code refund}, and this loop runs it as a {@code tools/call} on the server through a real MCP Java SDK client, then
 * hands the model the receipt {@code find_refund} confirms. When a refund fails in a way that leaves it unknown
 * whether it went through (the server lost the session mid-call, and the client started a new one), it asks
 * {@code find_refund} before refunding again.
 */
public class McpRefundLoop implements AgentLoop {

    private static final Map<String, String> TICKETS = Map.of(
            "resolve", "T-1042: charged twice (2 x 12.50 EUR) for order 7781; please refund the second charge.");

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public List<Outcome> run(LoopRun run) {
        // The agent's local Billing is not used: the MCP server is the billing here.
        RefundAgent agent = new RefundAgent(HarnessOpenAi.builder(run).maxRetries(0).build(), new Billing());
        Map<String, Outcome> finished = new HashMap<>();
        for (Outcome o : run.journal().completed()) {
            finished.put(o.op(), o);
        }
        List<Outcome> outcomes = new ArrayList<>();
        try (McpSyncClient billing = HarnessMcp.syncClient(run, "billing")) {
            for (String op : run.ops()) {
                Outcome outcome = finished.get(op);
                if (outcome == null) {
                    try (var scope = run.op(op)) {
                        String reply = agent.resolve(TICKETS.get(op), (name, arguments, body) ->
                                refund(billing, JSON.readTree(arguments)));
                        outcome = Outcome.ok(op, JsonNodeFactory.instance.stringNode(reply), 1);
                    } catch (Exception e) {
                        outcome = Outcome.degraded(op, "tool", 1);
                    }
                    run.journal().record(outcome);
                }
                outcomes.add(outcome);
            }
        }
        return outcomes;
    }

    /** Refunds through the server; after a failure, refunds again only if {@code find_refund} finds nothing. */
    protected String refund(McpSyncClient billing, JsonNode arguments) {
        try {
            call(billing, "refund", arguments);
        } catch (RuntimeException e) {
            // The server may have refunded before it lost the session: look before refunding again.
            String receipt = receipt(billing, arguments);
            if (!receipt.equals("none")) {
                return receipt;
            }
            call(billing, "refund", arguments);
        }
        return receipt(billing, arguments);
    }

    static String receipt(McpSyncClient billing, JsonNode arguments) {
        return call(billing, "find_refund", JSON.createObjectNode().put("refund_id",
                arguments.path("refund_id").asString()));
    }

    static String call(McpSyncClient billing, String tool, JsonNode arguments) {
        @SuppressWarnings("unchecked")
        Map<String, Object> args = JSON.convertValue(arguments, Map.class);
        McpSchema.CallToolResult result = billing.callTool(new McpSchema.CallToolRequest(tool, args));
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        if (Boolean.TRUE.equals(result.isError())) {
            throw new IllegalStateException(tool + " failed: " + text);
        }
        return text;
    }

    /** The same loop, refunding again after any failure without looking: after a lost session it refunds twice. */
    public static final class Blind extends McpRefundLoop {
        @Override
        protected String refund(McpSyncClient billing, JsonNode arguments) {
            try {
                call(billing, "refund", arguments);
            } catch (RuntimeException e) {
                call(billing, "refund", arguments);
            }
            return receipt(billing, arguments);
        }
    }
}
