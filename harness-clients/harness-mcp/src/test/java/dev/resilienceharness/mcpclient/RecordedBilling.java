package dev.resilienceharness.mcpclient;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.clients.tck.RehearsalProject;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.mcp.McpCassetteFiles;
import dev.resilienceharness.mcp.McpCassetteWriter;
import dev.resilienceharness.mcp.McpExchange;
import dev.resilienceharness.mcp.McpOutcome;
import dev.resilienceharness.mcp.McpSession;
import dev.resilienceharness.mcp.McpTransportKind;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The billing server's session as the MCP Java SDK's own client sends it, written as an MCP cassette: the client
 * talks to a {@link ScriptedEndpoint}, and each request it sent is kept with the answer it got, so that the params
 * in the cassette are the SDK's own (its protocol version, client info and capabilities) and replay matches them.
 */
final class RecordedBilling {

    /** The arguments the tests' loops call their tools with. */
    static final Map<String, Object> REFUND = Map.of("order", "B-2");
    static final Map<String, Object> KEYED_REFUND = Map.of("order", "B-2", "refund_id", "r-B-2");
    static final Map<String, Object> LOOKUP = Map.of("order", "B-2");

    private RecordedBilling() {
    }

    /** Writes {@code cassettes/mcp/billing/session-1.json}: initialize, tools/list, and a call of each tool. */
    /**
     * A project of {@code yaml} whose cassettes hold the billing session and the model cassette of the op
     * {@code resolve}, which the loops of these tests do not call the provider for but the rehearsal needs to prepare.
     */
    static RehearsalProject project(Path dir, String yaml) throws Exception {
        RehearsalProject project = RehearsalProject.write(dir, yaml);
        CassetteStore.replaying(project.config().cassettes(), VolatilePaths.of(List.of())).write(
                JsonNodeFactory.instance.objectNode().put("op", "resolve"),
                JsonNodeFactory.instance.objectNode().put("done", "resolve"), null);
        write(project.config().cassettes());
        return project;
    }

    static void write(Path cassettes) throws IOException {
        ScriptedEndpoint server = new ScriptedEndpoint();
        server.next("tools/list", id -> ScriptedEndpoint.reply(id, TOOLS));
        server.next("tools/call", id -> ScriptedEndpoint.reply(id, "{\"content\":[{\"type\":\"text\",\"text\":"
                + "\"refunded B-2\"}],\"structuredContent\":{\"refund_id\":\"r-1\"},\"isError\":false}"));
        server.next("tools/call", id -> ScriptedEndpoint.reply(id, "{\"content\":[{\"type\":\"text\",\"text\":"
                + "\"refunded r-B-2\"}],\"isError\":false}"));
        server.next("tools/call", id -> ScriptedEndpoint.reply(id, "{\"content\":[{\"type\":\"text\",\"text\":"
                + "\"order B-2: refunded\"}],\"isError\":false}"));
        Kept kept = new Kept(server);
        McpSyncClient client = HarnessMcp.syncClient(new RunMcpTransport(kept, Duration.ofSeconds(20)), s -> { });
        client.initialize();
        client.listTools();
        client.callTool(new McpSchema.CallToolRequest("refund", REFUND));
        client.callTool(new McpSchema.CallToolRequest("keyed_refund", KEYED_REFUND));
        client.callTool(new McpSchema.CallToolRequest("lookup_order", LOOKUP));
        McpCassetteWriter.write(McpCassetteFiles.sessionFile(cassettes, "billing", "session-1"),
                new McpSession("billing", McpTransportKind.STREAMABLE_HTTP, kept.exchanges));
    }

    static final String TOOLS = "{\"tools\":[{\"name\":\"lookup_order\",\"inputSchema\":{\"type\":\"object\"}},"
            + "{\"name\":\"refund\",\"inputSchema\":{\"type\":\"object\"},\"outputSchema\":{\"type\":\"object\","
            + "\"properties\":{\"refund_id\":{\"type\":\"string\"}},\"required\":[\"refund_id\"]}},"
            + "{\"name\":\"keyed_refund\",\"inputSchema\":{\"type\":\"object\"}}]}";

    /** Keeps each message the client sent with the answer it got, as exchanges of a session. */
    private static final class Kept implements dev.resilienceharness.mcp.McpEndpoint {
        private final ScriptedEndpoint server;
        final List<McpExchange> exchanges = new ArrayList<>();

        Kept(ScriptedEndpoint server) {
            this.server = server;
        }

        @Override
        public String server() {
            return server.server();
        }

        @Override
        public McpOutcome send(String message, Duration clientTimeout) {
            McpOutcome outcome = server.send(message, clientTimeout);
            JsonNode m = Json.readTree(message);
            String method = m.get("method").asString();
            JsonNode params = m.get("params");
            if (!m.has("id")) {
                exchanges.add(new McpExchange.Notice(McpExchange.Sender.CLIENT, 0, method, params));
            } else {
                List<String> reply = ((McpOutcome.Reply) outcome).messages();
                JsonNode result = Json.readTree(reply.get(reply.size() - 1)).get("result");
                exchanges.add(McpExchange.Call.answered(method, params, 40, result));
            }
            return outcome;
        }

        @Override
        public void failureAnsweredAsText(String request, String text) {
            throw new UnsupportedOperationException();
        }
    }
}
