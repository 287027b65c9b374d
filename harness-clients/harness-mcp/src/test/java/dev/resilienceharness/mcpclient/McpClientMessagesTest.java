package dev.resilienceharness.mcpclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What harness-mcp throws, each as the troubleshooting page quotes it. */
class McpClientMessagesTest {

    /** The page, from this module's folder (harness-clients/harness-mcp). */
    private static final Path TROUBLESHOOTING = Path.of("..", "..", "docs", "src", "site", "markdown",
            "troubleshooting.md");

    @Test
    void aNonPositiveTimeoutIsRefusedWithTheTimeoutGiven() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HarnessMcp.transport(new ScriptedEndpoint(), Duration.ofSeconds(-1)));
        assertEquals("the request timeout must be positive, not PT-1S", e.getMessage());
        assertEquals(McpClientMessages.nonPositiveTimeout(Duration.ofSeconds(-1)), e.getMessage());
    }

    @Test
    void aMessageSentBeforeTheTransportIsConnectedIsRefused() {
        RunMcpTransport transport = new RunMcpTransport(new ScriptedEndpoint(), Duration.ofSeconds(20));
        McpSchema.JSONRPCRequest initialize = new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION,
                McpSchema.METHOD_INITIALIZE, 1, Map.of("protocolVersion", "2025-06-18"));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> transport.sendMessage(initialize).block());
        assertEquals("the MCP client sent a message before it connected its transport", e.getMessage());
    }

    @Test
    void theTroubleshootingPageHasARowForEveryMessage() throws Exception {
        String page = Files.readString(TROUBLESHOOTING, StandardCharsets.UTF_8);
        String timeout = McpClientFailures.timeout(Duration.ofMillis(20000)).getMessage().replace("20000", "…");
        List<String> quoted = List.of(
                McpClientMessages.nonPositiveTimeout(Duration.ZERO).replace("PT0S", "…"),
                McpClientMessages.SENT_BEFORE_CONNECT,
                McpClientMessages.NOT_WRITABLE,
                McpClientMessages.NOT_JSON_RPC,
                McpClientMessages.unknownOutcome("x").replace(": x", ": …"),
                timeout,
                new McpTransportSessionNotFoundException("billing-1").getMessage().replace("billing-1", "…"),
                McpClientFailures.serverNotFound(),
                McpClientFailures.throttled());
        for (String message : quoted) {
            assertTrue(page.contains("| `" + message + "`"), "no row for: " + message);
        }
    }
}
