package com.acme;

import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.mcpclient.HarnessMcp;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Asks the model what to do, then looks the refund up through the ledger's MCP server. */
public class LedgerAgent implements AgentLoop {

    @Override
    public List<Outcome> run(LoopRun run) {
        byte[] body = "{\"model\":\"m-1\",\"messages\":[{\"role\":\"user\",\"content\":\"find the refund\"}]}"
                .getBytes(StandardCharsets.UTF_8);
        try (var scope = run.op("lookup")) {
            run.http().exchange(new HttpAttempt("acme-sdk 1.0", "POST", "chat/completions", Map.of(), body, null, 0));
            try (McpSyncClient ledger = HarnessMcp.syncClient(run, "ledger")) {
                ledger.initialize();
                ledger.callTool(new McpSchema.CallToolRequest("find_refund", Map.of("order_id", "ord-1001")));
            }
        }
        return List.of(Outcome.ok("lookup", null, 1));
    }
}
