package dev.resilienceharness.bench;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.mcp.McpCassetteFiles;
import dev.resilienceharness.mcp.McpCassetteWriter;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.mcp.McpExchange;
import dev.resilienceharness.mcp.McpOutcome;
import dev.resilienceharness.mcp.McpSession;
import dev.resilienceharness.mcp.McpTransportKind;
import dev.resilienceharness.mcpclient.HarnessMcp;
import dev.resilienceharness.trace.McpRecord;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.Setup;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Scenario-runs per second of a five-call MCP scenario through the MCP Java SDK adapter on one thread: per run a real
 * {@code McpSyncClient} with the SDK's defaults over the run's MCP server, which sends {@code initialize},
 * {@code tools/list} and three {@code tools/call}, answered from an MCP cassette, two scenarios of four with faults
 * on the virtual clock (a tool error, a timeout, a slow call with progress).
 */
public class McpAdapterBenchmark extends AdapterBenchmark {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.bench.McpAdapterBenchmark$McpLoop
            policy: {max_total_wait: 60s}
            mcp_servers:
              billing: {transport: streamable_http, url: "http://127.0.0.1:8931/mcp"}
            tools:
              lookup_order: {server: billing}
              refund: {side_effects: true, idempotency_key: /refund_id, server: billing}
            scenarios:
              - {name: clean, ops: [resolve]}
              - {name: clean-again, ops: [resolve]}
              - {name: tool-error, ops: [resolve], tool_faults: {lookup_order: [none, error]}}
              - {name: timeout-and-slow, ops: [resolve], tool_faults: {refund: [timeout, {slow: 2s, progress: 2}]}}
            """;

    private static final Map<String, Object> ORDER = Map.of("order", "B-2");
    private static final Map<String, Object> REFUND = Map.of("order", "B-2", "refund_id", "r-B-2");

    /** A team loop on the SDK's default sync client: initialize, list, look the order up twice, refund it. */
    public static final class McpLoop implements AgentLoop {
        @Override
        public List<Outcome> run(LoopRun run) {
            McpSyncClient billing = HarnessMcp.syncClient(run, "billing");
            billing.initialize();
            int tools = billing.listTools().tools().size();
            String last = "";
            for (McpSchema.CallToolRequest call : List.of(new McpSchema.CallToolRequest("lookup_order", ORDER),
                    new McpSchema.CallToolRequest("lookup_order", ORDER),
                    new McpSchema.CallToolRequest("refund", REFUND, Map.of("progressToken", "p-1")))) {
                try {
                    McpSchema.CallToolResult result = billing.callTool(call);
                    last = result.content().isEmpty() ? "" : ((McpSchema.TextContent) result.content().get(0)).text();
                } catch (RuntimeException e) {
                    last = "failed";
                }
            }
            return List.of(Outcome.ok("resolve", JsonNodeFactory.instance.stringNode(tools + " " + last), 1));
        }
    }

    @Setup
    public void prepare() throws Exception {
        HarnessConfig config = config("mcp-bench", YAML);
        // The op's model call, which the loop does not make, still needs its cassette to prepare the rehearsal.
        CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of())).write(
                JsonNodeFactory.instance.objectNode().put("op", "resolve"),
                JsonNodeFactory.instance.objectNode().put("done", "resolve"), null);
        writeSession(config.cassettes());
        rehearse(config, McpLoop::new);
        // Measure runs that do what they should: five MCP requests each, answered, and no failed run.
        requireSoundRuns((s, trace) -> {
            long requests = trace.mcp().stream().filter(r -> r.outcome() != McpRecord.Outcome.NOTICE).count();
            return trace.failure() == null && requests == 5 ? null
                    : requests + " MCP requests, failure " + trace.failure() + ", outcomes " + trace.outcomes();
        });
    }

    /**
     * The billing session as the SDK's own client sends it: the loop's client, over an endpoint that answers it as
     * the server would and keeps each request with its answer, so that the cassette's params are the SDK's.
     */
    private static void writeSession(Path cassettes) throws IOException {
        List<McpExchange> exchanges = new ArrayList<>();
        McpEndpoint answering = new McpEndpoint() {
            @Override
            public String server() {
                return "billing";
            }

            @Override
            public McpOutcome send(String message, Duration clientTimeout) {
                JsonNode m = Json.readTree(message);
                String method = m.get("method").asString();
                if (!m.has("id")) {
                    exchanges.add(new McpExchange.Notice(McpExchange.Sender.CLIENT, 0, method, m.get("params")));
                    return new McpOutcome.Reply(List.of());
                }
                JsonNode result = Json.readTree(switch (method) {
                    case "initialize" -> "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                            + "\"serverInfo\":{\"name\":\"billing\",\"version\":\"2.1\"}}";
                    case "tools/list" -> "{\"tools\":[{\"name\":\"lookup_order\",\"inputSchema\":{\"type\":"
                            + "\"object\"}},{\"name\":\"refund\",\"inputSchema\":{\"type\":\"object\"}}]}";
                    default -> "{\"content\":[{\"type\":\"text\",\"text\":\"" + m.get("params").get("name")
                            .asString() + " B-2 done\"}],\"isError\":false}";
                });
                exchanges.add(McpExchange.Call.answered(method, m.get("params"), 30, result));
                return new McpOutcome.Reply(List.of("{\"jsonrpc\":\"2.0\",\"id\":" + Json.compact(m.get("id"))
                        + ",\"result\":" + Json.compact(result) + "}"));
            }

            @Override
            public void failureAnsweredAsText(String request, String text) {
                throw new UnsupportedOperationException();
            }
        };
        McpSyncClient client = io.modelcontextprotocol.client.McpClient.sync(HarnessMcp.transport(answering,
                HarnessMcp.DEFAULT_REQUEST_TIMEOUT)).build();
        client.initialize();
        client.listTools();
        client.callTool(new McpSchema.CallToolRequest("lookup_order", ORDER));
        client.callTool(new McpSchema.CallToolRequest("refund", REFUND, Map.of("progressToken", "p-1")));
        McpCassetteWriter.write(McpCassetteFiles.sessionFile(cassettes, "billing", "session-1"),
                new McpSession("billing", McpTransportKind.STREAMABLE_HTTP, exchanges));
    }
}
