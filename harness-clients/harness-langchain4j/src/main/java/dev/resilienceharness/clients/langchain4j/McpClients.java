package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.transport.McpTransport;
import dev.resilienceharness.loop.LoopRun;
import java.util.function.Consumer;

/**
 * What {@link HarnessLangChain4j}'s MCP methods do. Apart from it, so that a team without langchain4j-mcp can still
 * load {@code HarnessLangChain4j}.
 */
final class McpClients {

    private McpClients() {
    }

    static McpTransport transport(LoopRun run, String server) {
        return new HarnessMcpTransport(run.mcp(server, HarnessMcpTransport.LAYER), McpClientTimeouts.DEFAULTS);
    }

    static DefaultMcpClient client(LoopRun run, String server, Consumer<? super DefaultMcpClient.Builder> customizer) {
        HarnessMcpClientBuilder builder = new HarnessMcpClientBuilder(run.mcp(server, HarnessMcpTransport.LAYER));
        customizer.accept(builder);
        return builder.build();
    }
}
