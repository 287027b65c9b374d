package dev.resilienceharness.mcpclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.mcp.McpOutcome;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportException;
import io.modelcontextprotocol.spec.McpTransportSessionClosedException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import reactor.core.Exceptions;

/**
 * Each outcome of a run's MCP endpoint as the real MCP Java SDK clients see it over {@link RunMcpTransport}, the sync
 * and the async one, against a scripted endpoint.
 */
class RunMcpTransportTest {

    private static final McpSchema.CallToolRequest REFUND = new McpSchema.CallToolRequest("refund",
            Map.of("order", "B-2"));

    private final ScriptedEndpoint server = new ScriptedEndpoint();

    private McpSyncClient sync() {
        return HarnessMcp.syncClient(new RunMcpTransport(server, Duration.ofSeconds(20)), spec -> { });
    }

    private McpAsyncClient async() {
        return HarnessMcp.asyncClient(new RunMcpTransport(server, Duration.ofSeconds(20)), spec -> { });
    }

    /** What a failure the sync client throws is, once Reactor's wrapping of a checked exception is taken off. */
    private static Throwable unwrapped(Throwable thrown) {
        return Exceptions.unwrap(thrown);
    }

    /** The sync client hands consumers their notifications on another thread (boundedElastic), as from any server. */
    private static void awaitSize(List<?> list, int size) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (list.size() < size && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(size, list.size(), list.toString());
    }

    @Test
    void initializeListAndCallGoThroughTheEndpointOneMessageEach() {
        McpSyncClient client = sync();
        McpSchema.InitializeResult init = client.initialize();
        assertEquals("billing", init.serverInfo().name());
        assertEquals(List.of("lookup_order", "refund"),
                client.listTools().tools().stream().map(McpSchema.Tool::name).toList());
        McpSchema.CallToolResult result = client.callTool(REFUND);
        assertEquals("done B-2", ((McpSchema.TextContent) result.content().get(0)).text());
        assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "tools/call"), server.methods());
        assertTrue(server.timeouts().stream().allMatch(Duration.ofSeconds(20)::equals), server.timeouts().toString());
    }

    @Test
    void noReplyIsTheSdksOwnRequestTimeoutAtOnce() {
        server.next("tools/call", id -> new McpOutcome.NoReply(Duration.ofSeconds(20), List.of()));
        McpSyncClient client = sync();
        client.initialize();
        long start = System.nanoTime();
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> client.callTool(REFUND));
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(5)) < 0,
                "no real wait for the 20 s timeout");
        TimeoutException timeout = assertInstanceOf(TimeoutException.class, unwrapped(thrown));
        assertEquals("Did not observe any item or terminal signal within 20000ms in 'source(MonoDeferContextual)'"
                + " (and no fallback has been configured)", timeout.getMessage());

        server.next("tools/call", id -> new McpOutcome.NoReply(Duration.ofSeconds(20), List.of()));
        McpAsyncClient asyncClient = async();
        asyncClient.initialize().block();
        Throwable seen = assertThrows(RuntimeException.class, () -> asyncClient.callTool(REFUND).block());
        assertInstanceOf(TimeoutException.class, unwrapped(seen));
    }

    @Test
    void progressBeforeATimeoutReachesTheProgressConsumer() {
        List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
        server.next("tools/call", id -> new McpOutcome.NoReply(Duration.ofSeconds(20), List.of(
                ScriptedEndpoint.notification("notifications/progress",
                        "{\"progressToken\":\"p-1\",\"progress\":1,\"total\":3}"))));
        McpSyncClient client = HarnessMcp.syncClient(new RunMcpTransport(server, Duration.ofSeconds(20)),
                spec -> spec.progressConsumer(progress::add));
        client.initialize();
        assertThrows(RuntimeException.class, () -> client.callTool(REFUND));
        awaitSize(progress, 1);
        assertEquals("p-1", progress.get(0).progressToken());
        assertEquals(1.0, progress.get(0).progress());
    }

    @Test
    void progressOfASlowCallReachesTheConsumerBeforeItsResult() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        server.next("tools/call", id -> ScriptedEndpoint.reply(id, "{\"content\":[],\"isError\":false}",
                ScriptedEndpoint.notification("notifications/progress",
                        "{\"progressToken\":\"p-2\",\"progress\":2,\"total\":2}")));
        McpAsyncClient client = HarnessMcp.asyncClient(new RunMcpTransport(server, Duration.ofSeconds(20)),
                spec -> spec.progressConsumer(p -> reactor.core.publisher.Mono.fromRunnable(() -> seen.add(p))));
        client.initialize().block();
        McpSchema.CallToolResult result = client.callTool(REFUND).block();
        seen.add(result);
        assertEquals(2, seen.size());
        assertInstanceOf(McpSchema.ProgressNotification.class, seen.get(0));
    }

    @Test
    void aSessionNotFoundMakesTheClientInitializeAgainAndFailsTheCallInFlight() {
        server.next("tools/call", id -> new McpOutcome.SessionNotFound());
        McpSyncClient client = sync();
        client.initialize();
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> client.callTool(REFUND));
        assertEquals("MCP session with server terminated", thrown.getMessage());
        assertEquals(List.of("initialize", "notifications/initialized", "tools/call", "initialize",
                "notifications/initialized"), server.methods());
        assertEquals("done B-2", ((McpSchema.TextContent) client.callTool(REFUND).content().get(0)).text());

        server.next("tools/call", id -> new McpOutcome.SessionNotFound());
        McpAsyncClient asyncClient = async();
        asyncClient.initialize().block();
        Throwable seen = assertThrows(RuntimeException.class, () -> asyncClient.callTool(REFUND).block());
        assertEquals("MCP session with server terminated", seen.getMessage());
        assertFalse(asyncClient.callTool(REFUND).block().isError());
    }

    @Test
    void aServerGoneIsTheConnectionsIoException() {
        server.next("tools/call", id -> new McpOutcome.ServerGone("Connection reset"));
        McpSyncClient client = sync();
        client.initialize();
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> client.callTool(REFUND));
        IOException reset = assertInstanceOf(IOException.class, unwrapped(thrown));
        assertEquals("Connection reset", reset.getMessage());

        server.next("tools/call", id -> new McpOutcome.ServerGone("Connection reset"));
        McpAsyncClient asyncClient = async();
        asyncClient.initialize().block();
        Throwable seen = assertThrows(RuntimeException.class, () -> asyncClient.callTool(REFUND).block());
        assertInstanceOf(IOException.class, unwrapped(seen));
    }

    @Test
    void aThrottleIsTheStreamableHttpTransportsUnexpectedStatus() {
        server.next("tools/call", id -> new McpOutcome.Throttled(Duration.ofSeconds(2)));
        McpSyncClient client = sync();
        client.initialize();
        McpTransportException thrown = assertThrows(McpTransportException.class, () -> client.callTool(REFUND));
        assertEquals("Received unexpected status code: 429", thrown.getMessage());

        server.next("tools/call", id -> new McpOutcome.Throttled(Duration.ofSeconds(2)));
        McpAsyncClient asyncClient = async();
        asyncClient.initialize().block();
        assertThrows(McpTransportException.class, () -> asyncClient.callTool(REFUND).block());
    }

    @Test
    void anIsErrorResultIsAResultAndAJsonRpcErrorIsAnMcpError() {
        server.next("tools/call", id -> ScriptedEndpoint.reply(id,
                "{\"content\":[{\"type\":\"text\",\"text\":\"card declined\"}],\"isError\":true}"));
        server.next("tools/call", id -> new McpOutcome.Reply(List.of(
                ScriptedEndpoint.error(id, -32602, "unknown order"))));
        McpSyncClient client = sync();
        client.initialize();
        McpSchema.CallToolResult declined = client.callTool(REFUND);
        assertTrue(declined.isError());
        McpError error = assertThrows(McpError.class, () -> client.callTool(REFUND));
        assertEquals(-32602, error.getJsonRpcError().code());
        assertEquals("unknown order", error.getMessage());
    }

    @Test
    void aResultBreakingTheOutputSchemaIsTheSdksOwnValidationErrorWhenSchemasAreCached() {
        server.next("tools/call", id -> ScriptedEndpoint.reply(id,
                "{\"content\":[],\"structuredContent\":{\"refund\":7},\"isError\":false}"));
        McpSyncClient client = HarnessMcp.syncClient(new RunMcpTransport(server, Duration.ofSeconds(20)),
                spec -> spec.enableCallToolSchemaCaching(true));
        client.initialize();
        client.listTools();
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> client.callTool(REFUND));
        assertEquals("Tool call result validation failed: Validation failed: JSON schema validation errors:"
                + " [: required property 'refund_id' not found]", thrown.getMessage());
        assertEquals(IllegalArgumentException.class, thrown.getClass());
    }

    @Test
    void aToolsListChangedReachesTheToolsChangeConsumerWithTheNewList() {
        List<List<McpSchema.Tool>> changes = new CopyOnWriteArrayList<>();
        server.next("tools/call", id -> ScriptedEndpoint.reply(id, "{\"content\":[],\"isError\":false}",
                ScriptedEndpoint.notification("notifications/tools/list_changed", null)));
        McpSyncClient client = HarnessMcp.syncClient(new RunMcpTransport(server, Duration.ofSeconds(20)),
                spec -> spec.toolsChangeConsumer(changes::add));
        client.initialize();
        client.callTool(REFUND);
        awaitSize(changes, 1);
        assertEquals(2, changes.get(0).size());
        assertTrue(server.methods().contains("tools/list"), server.methods().toString());
    }

    @Test
    void anAnswerThatIsNotJsonRpcFailsTheCallAtOnceRatherThanLeavingItToTimeOut() {
        server.next("tools/call", id -> new McpOutcome.Reply(List.of("{\"jsonrpc\":\"2.0\",\"id\":")));
        McpSyncClient client = sync();
        client.initialize();
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> client.callTool(REFUND));
        assertEquals("the run answered with a message that is not JSON-RPC", Exceptions.unwrap(thrown).getMessage());
    }

    @Test
    void aClosedClientSendsNothingMore() {
        McpSyncClient client = sync();
        client.initialize();
        client.closeGracefully();
        int sent = server.sent().size();
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> client.callTool(REFUND));
        assertEquals(RuntimeException.class, thrown.getClass(), thrown.toString());
        assertInstanceOf(McpTransportSessionClosedException.class, thrown.getCause(), thrown.toString());
        assertEquals(sent, server.sent().size());
    }
}
