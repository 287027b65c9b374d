package dev.resilienceharness.clients.langchain4j;

import static dev.resilienceharness.clients.langchain4j.ScriptedMcpServer.read;
import static dev.resilienceharness.clients.langchain4j.ScriptedMcpServer.reply;
import static dev.resilienceharness.clients.langchain4j.ScriptedMcpServer.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.progress.McpProgressNotification;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.resilienceharness.mcp.McpOutcome;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * langchain4j-mcp's real {@code DefaultMcpClient} on {@link HarnessMcpTransport}: each outcome of the run's MCP
 * endpoint reaches it as it would from a real server over Streamable HTTP, and no outcome makes it wait for real.
 */
class HarnessMcpTransportTest {

    /** Longer than any answer takes here, far shorter than the client's own waits (30 s, 60 s). */
    private static final Duration PROMPT = Duration.ofSeconds(10);

    private final ScriptedMcpServer server = new ScriptedMcpServer();

    private DefaultMcpClient client(Consumer<DefaultMcpClient.Builder> customizer) {
        HarnessMcpClientBuilder builder = new HarnessMcpClientBuilder(server);
        customizer.accept(builder);
        return builder.build();
    }

    private DefaultMcpClient client() {
        return client(b -> { });
    }

    private static ToolExecutionRequest refund(String order) {
        return ToolExecutionRequest.builder().id("call-1").name("refund").arguments("{\"order\":\"" + order + "\"}")
                .build();
    }

    private static McpOutcome noReply(long id) {
        return new McpOutcome.NoReply(Duration.ofSeconds(60), List.of());
    }

    @Test
    void anAnsweredSessionInitializesListsAndCallsWithTheClientsOwnTimeouts() {
        try (DefaultMcpClient client = client()) {
            assertEquals(List.of("refund"), client.listTools().stream().map(t -> t.name()).toList());
            assertEquals("refunded order A1", client.executeTool(refund("A1")).resultText());
        }
        assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "tools/call"), server.methods());
        assertEquals(Duration.ofSeconds(30), server.timeouts.get(0), "initializationTimeout");
        assertEquals(Duration.ofSeconds(60), server.timeouts.get(2), "toolExecutionTimeout, for tools/list too");
        assertEquals(Duration.ofSeconds(60), server.timeouts.get(3), "toolExecutionTimeout");
        assertEquals(List.of(), server.answeredAsText);
    }

    @Test
    void theTimeoutsATeamSetsAreTheOnesTheEndpointRunsOut() {
        try (DefaultMcpClient client = client(b -> b.toolExecutionTimeout(Duration.ofSeconds(7))
                .initializationTimeout(Duration.ofSeconds(3)))) {
            client.executeTool(refund("A1"));
        }
        assertEquals(Duration.ofSeconds(3), server.timeouts.get(0));
        assertEquals(Duration.ofSeconds(7), server.timeouts.get(2));
    }

    @Test
    void aZeroToolTimeoutIsNoTimeoutAsTheClientReadsIt() {
        try (DefaultMcpClient client = client(b -> b.toolExecutionTimeout(Duration.ZERO))) {
            client.executeTool(refund("A1"));
        }
        assertEquals(Duration.ofMillis(Integer.MAX_VALUE), server.timeouts.get(2));
    }

    @Test
    void noAnswerToAToolCallIsTheClientsTimeoutTextAtOnceWithACancellationAndTheRunIsTold() {
        server.then("tools/call", HarnessMcpTransportTest::noReply);
        ToolExecutionResult result = assertTimeoutPreemptively(PROMPT, () -> {
            try (DefaultMcpClient client = client()) {
                return client.executeTool(refund("A1"));
            }
        });
        assertEquals("There was a timeout executing the tool", result.resultText());
        assertFalse(result.isError(), "langchain4j-mcp answers it as a normal result");
        assertEquals(List.of("initialize", "notifications/initialized", "tools/call", "notifications/cancelled"),
                server.methods());
        long callId = read(server.sent.get(2)).get("id").asLong();
        assertEquals(callId, read(server.sent.get(3)).path("params").path("requestId").asLong());
        assertEquals(List.of(callId + ": There was a timeout executing the tool"), server.answeredAsText);
    }

    @Test
    void aTeamsOwnTimeoutTextIsTheOneTheRunIsTold() {
        server.then("tools/call", HarnessMcpTransportTest::noReply);
        try (DefaultMcpClient client = client(b -> b.toolExecutionTimeoutErrorMessage("refund service too slow"))) {
            assertEquals("refund service too slow", client.executeTool(refund("A1")).resultText());
        }
        assertTrue(server.answeredAsText.get(0).endsWith(": refund service too slow"), server.answeredAsText.get(0));
    }

    @Test
    void progressSentBeforeTheTimeoutReachesTheProgressHandler() {
        server.then("tools/call", id -> new McpOutcome.NoReply(Duration.ofSeconds(60), List.of(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"" + id
                        + "\",\"progress\":1,\"total\":2}}")));
        List<McpProgressNotification> progress = new ArrayList<>();
        try (DefaultMcpClient client = client(b -> b.progressHandler(progress::add))) {
            assertEquals("There was a timeout executing the tool", client.executeTool(refund("A1")).resultText());
        }
        assertEquals(1, progress.size());
        assertEquals(1.0, progress.get(0).progress());
    }

    @Test
    void noAnswerToInitializeFailsTheClientAtOnce() {
        server.then("initialize", HarnessMcpTransportTest::noReply);
        RuntimeException e = assertTimeoutPreemptively(PROMPT,
                () -> assertThrows(RuntimeException.class, this::client));
        assertInstanceOf(java.util.concurrent.TimeoutException.class, e.getCause());
    }

    @Test
    void aSessionNotFoundInitializesAgainAndSendsTheSameCallOnceMore() {
        server.then("tools/call", id -> new McpOutcome.SessionNotFound());
        try (DefaultMcpClient client = client()) {
            assertEquals("refunded order A1", client.executeTool(refund("A1")).resultText());
        }
        assertEquals(List.of("initialize", "notifications/initialized", "tools/call", "initialize",
                "notifications/initialized", "tools/call"), server.methods());
        assertEquals(server.sent.get(2), server.sent.get(5), "the same request, id and all: sent again silently");
        assertEquals(server.sent.get(0), server.sent.get(3), "the client's first initialize");
    }

    @Test
    void aSecondSessionNotFoundLeavesTheCallToTheClientsTimeoutText() {
        server.then("tools/call", id -> new McpOutcome.SessionNotFound())
                .then("tools/call", id -> new McpOutcome.SessionNotFound());
        ToolExecutionResult result = assertTimeoutPreemptively(PROMPT, () -> {
            try (DefaultMcpClient client = client()) {
                return client.executeTool(refund("A1"));
            }
        });
        assertEquals("There was a timeout executing the tool", result.resultText());
        assertEquals(1, server.answeredAsText.size());
        String resent = server.sent.get(server.sent.size() - 2);
        assertEquals(List.of(ScriptedMcpServer.read(resent).path("id").asText() + ": 60s"), server.waited,
                "the client waited its toolExecutionTimeout for the call sent again");
    }

    @Test
    void aSessionNotFoundForInitializeIsAnUnexpectedStatus() {
        server.then("initialize", id -> new McpOutcome.SessionNotFound());
        RuntimeException e = assertThrows(RuntimeException.class, this::client);
        assertTrue(e.getMessage().contains("Unexpected status code: 404"), e.getMessage());
    }

    @Test
    void aThrottledCallFailsWithTheStatusAndIsNotSentAgain() {
        server.then("tools/call", id -> new McpOutcome.Throttled(Duration.ofSeconds(2)));
        try (DefaultMcpClient client = client()) {
            ToolExecutionException e = assertThrows(ToolExecutionException.class,
                    () -> client.executeTool(refund("A1")));
            assertEquals("Unexpected status code: 429", e.getCause().getMessage());
        }
        assertEquals(1, server.methods().stream().filter("tools/call"::equals).count());
    }

    @Test
    void aServerGoneFailsTheCallAsADroppedConnectionAndTheClientDoesNotReconnect() {
        server.then("tools/call", id -> new McpOutcome.ServerGone("Connection reset"))
                .then("tools/call", id -> new McpOutcome.ServerGone("Connection reset"));
        try (DefaultMcpClient client = client()) {
            ToolExecutionException first = assertThrows(ToolExecutionException.class,
                    () -> client.executeTool(refund("A1")));
            assertInstanceOf(IOException.class, first.getCause());
            assertEquals("Connection reset", first.getCause().getMessage());
            assertThrows(ToolExecutionException.class, () -> client.executeTool(refund("A1")));
        }
        assertEquals(1, server.methods().stream().filter("initialize"::equals).count(),
                "no new initialize: its Streamable HTTP transport never calls the client's reconnect");
    }

    @Test
    void anIsErrorResultIsAToolExecutionExceptionWithItsText() {
        server.then("tools/call", id -> reply(id, "{\"content\":[{\"type\":\"text\",\"text\":\"card declined\"}],"
                + "\"isError\":true}"));
        try (DefaultMcpClient client = client()) {
            ToolExecutionException e = assertThrows(ToolExecutionException.class,
                    () -> client.executeTool(refund("A1")));
            assertEquals("card declined", e.getMessage());
        }
    }

    @Test
    void aJsonRpcErrorIsAToolExecutionExceptionWithItsCode() {
        server.then("tools/call", id -> new McpOutcome.Reply(List.of("{\"jsonrpc\":\"2.0\",\"id\":" + id
                + ",\"error\":{\"code\":-32603,\"message\":\"ledger unavailable\"}}")))
                .then("tools/call", id -> new McpOutcome.Reply(List.of("{\"jsonrpc\":\"2.0\",\"id\":" + id
                        + ",\"error\":{\"code\":-32602,\"message\":\"order is required\"}}")));
        try (DefaultMcpClient client = client()) {
            ToolExecutionException e = assertThrows(ToolExecutionException.class,
                    () -> client.executeTool(refund("A1")));
            assertEquals(-32603, e.errorCode());
            assertEquals("ledger unavailable", e.getMessage());
            ToolArgumentsException args = assertThrows(ToolArgumentsException.class,
                    () -> client.executeTool(refund("A1")));
            assertEquals(-32602, args.errorCode());
        }
    }

    @Test
    void aToolsListChangedNoticeEmptiesTheClientsToolListCache() {
        server.then("tools/call", id -> new McpOutcome.Reply(List.of(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + text("refunded") + "}")));
        try (DefaultMcpClient client = client()) {
            client.listTools();
            client.listTools();
            assertEquals(1, server.methods().stream().filter("tools/list"::equals).count(), "cached");
            assertEquals("refunded", client.executeTool(refund("A1")).resultText());
            client.listTools();
        }
        assertEquals(2, server.methods().stream().filter("tools/list"::equals).count(), "asked again");
    }

    @Test
    void theTransportItselfNeverCallsTheClientsReconnect() {
        HarnessMcpTransport transport = new HarnessMcpTransport(server, McpClientTimeouts.DEFAULTS);
        AtomicBoolean ran = new AtomicBoolean();
        transport.onFailure(() -> ran.set(true));
        server.then("tools/call", id -> new McpOutcome.ServerGone("Connection reset"));
        try (DefaultMcpClient client = DefaultMcpClient.builder().transport(transport).autoHealthCheck(false)
                .build()) {
            assertThrows(ToolExecutionException.class, () -> client.executeTool(refund("A1")));
        }
        assertFalse(ran.get());
    }
}
