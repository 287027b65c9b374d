package dev.resilienceharness.mcpclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.MemoryJournal;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.Reply;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * {@link HarnessMcp} takes the run's MCP server under its layer name and hands the endpoint the client's own request
 * timeout: the SDK's default, or the one given, whatever the customizer set.
 */
class HarnessMcpTest {

    private final ScriptedEndpoint billing = new ScriptedEndpoint();
    private final List<String> asked = new ArrayList<>();

    /** A run's HTTP endpoint that knows one MCP server, billing, and nothing else. */
    private final HttpEndpoint http = new HttpEndpoint() {
        @Override
        public HttpAnswer exchange(HttpAttempt attempt) {
            throw new UnsupportedOperationException();
        }

        @Override
        public InputStream body(HttpAnswer.Response response, Duration readTimeout) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Clock clock() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void sleep(Duration duration, String sdk) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Scope op(String op) {
            return () -> { };
        }

        @Override
        public McpEndpoint mcp(String server, String layer) {
            asked.add(server + " as " + layer);
            if (!server.equals("billing")) {
                throw new IllegalArgumentException("no MCP server '" + server + "' is declared");
            }
            return billing;
        }
    };

    private final LoopRun run = LoopRun.ofTemplates(List.of("resolve"),
            op -> JsonNodeFactory.instance.objectNode(), payload -> Reply.of(payload),
            Policy.defaults(Duration.ofSeconds(30)), new VirtualClock(), new MemoryJournal(), http);

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
