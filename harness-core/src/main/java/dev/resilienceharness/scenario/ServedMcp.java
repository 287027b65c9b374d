package dev.resilienceharness.scenario;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.mcp.McpOutcome;
import dev.resilienceharness.trace.McpRecord;
import dev.resilienceharness.trace.ToolRecord;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The MCP servers of one run of {@code mvn resilience:serve} (docs serve.md): the same runtime as a rehearsal's
 * {@code LoopRun.mcp}, answering from the servers' MCP cassettes with {@code scenario}'s MCP faults on a virtual clock
 * of its own, for clients that reach the proxy over HTTP. Each message belongs to the op {@code mcp:<server>}. Replay
 * only. Thread-safe.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ServedMcp {

    /** How the trace names the client of a served MCP server: whatever reached the proxy over HTTP. */
    public static final String LAYER = "serve";

    private final VirtualClock clock = new VirtualClock();
    private final ScenarioTransport transport;

    public ServedMcp(HarnessConfig config, Scenario scenario) {
        // No model call reaches this transport: the proxy answers those itself.
        this.transport = new ScenarioTransport(null, RunOps.of(List.of()), List.of(), scenario.policy(), clock, null,
                null, false, null, EndpointTurns.NONE)
                .withTools(config::tool, scenario.toolFaults(),
                        dev.resilienceharness.cassette.ToolRecordings.replaying(config.cassettes()))
                .withMcp(config, scenario, new McpCassettes(config.cassettes()), null);
    }

    /** The op a served server's messages belong to. */
    public static String op(String server) {
        return "mcp:" + server;
    }

    /**
     * The MCP server {@code server}.
     *
     * @throws IllegalArgumentException when the configuration declares no MCP server of that name
     */
    public McpEndpoint endpoint(String server) {
        McpEndpoint endpoint = transport.mcp(server, LAYER);
        return new McpEndpoint() {
            @Override
            public String server() {
                return endpoint.server();
            }

            @Override
            public McpOutcome send(String message, Duration clientTimeout) {
                try (var scope = transport.op(op(server))) {
                    return endpoint.send(message, clientTimeout);
                }
            }

            @Override
            public void failureAnsweredAsText(String request, String text) {
                endpoint.failureAnsweredAsText(request, text);
            }
        };
    }

    /** How far the run's virtual clock has moved. */
    public Duration elapsed() {
        synchronized (transport) {
            return Duration.ofNanos(transport.elapsedNanos());
        }
    }

    /** Every MCP message so far, in order. */
    public List<McpRecord> records() {
        return transport.mcpRecords();
    }

    /** Every tool execution so far (one per {@code tools/call}), in order. */
    public List<ToolRecord> tools() {
        synchronized (transport) {
            return List.copyOf(transport.toolRecords());
        }
    }
}
