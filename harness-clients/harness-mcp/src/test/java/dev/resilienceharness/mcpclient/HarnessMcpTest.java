package dev.resilienceharness.mcpclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.loop.LoopRun;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link HarnessMcp} takes the run's MCP server under its layer name and hands the endpoint the client's own request
 * timeout: the SDK's default, or the one given, whatever the customizer set.
 */
class HarnessMcpTest {

    private final ScriptedRun scripted = new ScriptedRun();
    private final ScriptedEndpoint billing = scripted.billing;
    private final List<String> asked = scripted.asked;
    private final LoopRun run = scripted.run;

    @Test
    void aSyncClientWithTheSdksDefaultsSendsTheSdksTwentySecondTimeout() {
        McpSyncClient client = HarnessMcp.syncClient(run, "billing");
        client.initialize();
        client.callTool(new io.modelcontextprotocol.spec.McpSchema.CallToolRequest("refund", Map.of("order", "A")));
        assertEquals(List.of("billing as MCP Java SDK"), asked);
        assertEquals(Duration.ofSeconds(20), HarnessMcp.DEFAULT_REQUEST_TIMEOUT);
        assertTrue(billing.timeouts().stream().allMatch(Duration.ofSeconds(20)::equals), billing.timeouts().toString());
    }

    @Test
    void theTimeoutGivenIsTheClientsAndTheEndpointsWhateverTheCustomizerSet() {
        McpSyncClient client = HarnessMcp.syncClient(run, "billing", Duration.ofSeconds(5),
                spec -> spec.requestTimeout(Duration.ofMinutes(3)).enableCallToolSchemaCaching(true));
        client.initialize();
        assertTrue(billing.timeouts().stream().allMatch(Duration.ofSeconds(5)::equals), billing.timeouts().toString());
    }

    @Test
    void anAsyncClientAndABareTransportGoToTheSameServer() {
        HarnessMcp.asyncClient(run, "billing", spec -> { }).initialize().block();
        McpClient.sync(HarnessMcp.transport(run, "billing", Duration.ofSeconds(7)))
                .requestTimeout(Duration.ofSeconds(7)).build().initialize();
        assertEquals(List.of("billing as MCP Java SDK", "billing as MCP Java SDK"), asked);
        assertEquals(List.of(Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(7),
                Duration.ofSeconds(7)), billing.timeouts());
    }

    @Test
    void anUndeclaredServerOrATimeoutThatIsNoneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> HarnessMcp.syncClient(run, "shipping"));
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> HarnessMcp.transport(run, "billing", Duration.ZERO));
        assertEquals("the request timeout must be positive, not PT0S", zero.getMessage());
    }
}
