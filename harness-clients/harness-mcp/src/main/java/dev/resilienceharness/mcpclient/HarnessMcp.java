package dev.resilienceharness.mcpclient;

import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.mcp.McpEndpoint;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Real MCP Java SDK clients ({@link McpSyncClient}, {@link McpAsyncClient}) whose transport is one scenario run's MCP
 * server (docs adapters/mcp-java-sdk.md): every message the client sends is answered from the server's MCP cassettes
 * and meets the scenario's MCP faults on the run's virtual clock, and each failure reaches the client as the SDK's
 * Streamable HTTP transport would hand it over from a real server. Everything else (capabilities, consumers, schema
 * caching) is the SDK's, as the team configures it.
 *
 * <pre>{@code
 * McpSyncClient billing = HarnessMcp.syncClient(run, "billing");             // the SDK's defaults
 * McpSyncClient billing = HarnessMcp.syncClient(run, "billing", Duration.ofSeconds(5),
 *         spec -> spec.enableCallToolSchemaCaching(true));                   // as production sets it
 * }</pre>
 *
 * <p>The client's request timeout is what a {@code timeout}, {@code hang} or long {@code slow} fault runs out on the
 * virtual clock, so the run must know it; the SDK's spec cannot be read back, so it is a parameter here and the
 * adapter sets it on the spec itself, after the customizer (a {@code requestTimeout} the customizer sets is replaced).
 */
public final class HarnessMcp {

    /** How the run's timeline and {@code side_effects} verdicts name this client. */
    public static final String LAYER = "MCP Java SDK";

    /** The SDK's own default request timeout ({@code McpClient.SyncSpec.requestTimeout}). */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(20);

    private HarnessMcp() {
    }

    /**
     * The SDK's transport seam over the run's MCP server {@code server}, for a client built with the SDK's default
     * request timeout: {@code McpClient.sync(HarnessMcp.transport(run, "billing")).build()}.
     *
     * @throws IllegalArgumentException when the configuration declares no MCP server of that name
     * @throws IllegalStateException    when the run was made without an HTTP endpoint
     */
    public static McpClientTransport transport(LoopRun run, String server) {
        return transport(run, server, DEFAULT_REQUEST_TIMEOUT);
    }

    /**
     * {@link #transport(LoopRun, String)} for a client whose {@code requestTimeout} is {@code requestTimeout}: set the
     * same value on the spec, since the transport cannot read it from the client.
     */
    public static McpClientTransport transport(LoopRun run, String server, Duration requestTimeout) {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(server, "server");
        return new RunMcpTransport(run.mcp(server, LAYER), requestTimeout);
    }

    /** The transport over an endpoint already obtained from {@code run.mcp(server, HarnessMcp.LAYER)}. */
    public static McpClientTransport transport(McpEndpoint endpoint, Duration requestTimeout) {
        return new RunMcpTransport(endpoint, requestTimeout);
    }

    /** A synchronous client with the SDK's defaults, over the run's MCP server {@code server}. */
    public static McpSyncClient syncClient(LoopRun run, String server) {
        return syncClient(run, server, DEFAULT_REQUEST_TIMEOUT, spec -> { });
    }

    /** A synchronous client with the SDK's default request timeout and what {@code customizer} sets on its spec. */
    public static McpSyncClient syncClient(LoopRun run, String server, Consumer<McpClient.SyncSpec> customizer) {
        return syncClient(run, server, DEFAULT_REQUEST_TIMEOUT, customizer);
    }

    /** A synchronous client with {@code requestTimeout} and what {@code customizer} sets on its spec. */
    public static McpSyncClient syncClient(LoopRun run, String server, Duration requestTimeout,
            Consumer<McpClient.SyncSpec> customizer) {
        return syncClient(new RunMcpTransport(run.mcp(server, LAYER), requestTimeout), customizer);
    }

    /** A synchronous client over {@code transport}, with the transport's request timeout. */
    static McpSyncClient syncClient(RunMcpTransport transport, Consumer<McpClient.SyncSpec> customizer) {
        Objects.requireNonNull(customizer, "customizer");
        McpClient.SyncSpec spec = McpClient.sync(transport);
        customizer.accept(spec);
        return spec.requestTimeout(transport.requestTimeout()).build();
    }

    /** An asynchronous client with the SDK's defaults, over the run's MCP server {@code server}. */
    public static McpAsyncClient asyncClient(LoopRun run, String server) {
        return asyncClient(run, server, DEFAULT_REQUEST_TIMEOUT, spec -> { });
    }

    /** An asynchronous client with the SDK's default request timeout and what {@code customizer} sets on its spec. */
    public static McpAsyncClient asyncClient(LoopRun run, String server, Consumer<McpClient.AsyncSpec> customizer) {
        return asyncClient(run, server, DEFAULT_REQUEST_TIMEOUT, customizer);
    }

    /** An asynchronous client with {@code requestTimeout} and what {@code customizer} sets on its spec. */
    public static McpAsyncClient asyncClient(LoopRun run, String server, Duration requestTimeout,
            Consumer<McpClient.AsyncSpec> customizer) {
        return asyncClient(new RunMcpTransport(run.mcp(server, LAYER), requestTimeout), customizer);
    }

    /** An asynchronous client over {@code transport}, with the transport's request timeout. */
    static McpAsyncClient asyncClient(RunMcpTransport transport, Consumer<McpClient.AsyncSpec> customizer) {
        Objects.requireNonNull(customizer, "customizer");
        McpClient.AsyncSpec spec = McpClient.async(transport);
        customizer.accept(spec);
        return spec.requestTimeout(transport.requestTimeout()).build();
    }
}
