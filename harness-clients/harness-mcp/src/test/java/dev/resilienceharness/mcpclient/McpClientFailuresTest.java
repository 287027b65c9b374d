package dev.resilienceharness.mcpclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.mcp.McpOutcome;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;

/**
 * The failures {@link RunMcpTransport} raises are the SDK's own: each is compared with what the real client raises
 * when its own timeout fires, or when its own Streamable HTTP transport meets the same HTTP failure from a server on
 * 127.0.0.1.
 */
class McpClientFailuresTest {

    private static final McpSchema.CallToolRequest REFUND = new McpSchema.CallToolRequest("refund",
            Map.of("order", "B-2"));

    /** Answers all but tools/call through a scripted endpoint; a tools/call is sent and never answered. */
    private static final class Silent implements McpClientTransport {
        private final RunMcpTransport inner = new RunMcpTransport(new ScriptedEndpoint(), Duration.ofSeconds(20));

        @Override
        public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> h) {
            return inner.connect(h);
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return message instanceof McpSchema.JSONRPCRequest r && r.method().equals("tools/call") ? Mono.empty()
                    : inner.sendMessage(message);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return inner.unmarshalFrom(data, type);
        }
    }

    private static RuntimeException failedCall(McpSyncClient client) {
        client.initialize();
        return assertThrows(RuntimeException.class, () -> client.callTool(REFUND));
    }

    private static RuntimeException failedCall(McpOutcome outcome) {
        ScriptedEndpoint server = new ScriptedEndpoint().next("tools/call", id -> outcome);
        return failedCall(HarnessMcp.syncClient(new RunMcpTransport(server, Duration.ofMillis(300)), s -> { }));
    }

    private static void assertSame(Throwable sdk, Throwable ours) {
        assertEquals(sdk.getClass(), ours.getClass(), ours.toString());
        Throwable sdkCause = Exceptions.unwrap(sdk);
        Throwable ourCause = Exceptions.unwrap(ours);
        assertEquals(sdkCause.getClass(), ourCause.getClass(), ours.toString());
        assertEquals(sdkCause.getMessage(), ourCause.getMessage());
    }

    @Test
    void noReplyIsWhatTheClientsOwnRequestTimeoutRaises() {
        // Warm up first so that the real 300 ms timeout fires on the tools/call, not on a cold initialize.
        HarnessMcp.syncClient(new RunMcpTransport(new ScriptedEndpoint(), Duration.ofSeconds(20)), s -> { })
                .initialize();
        RuntimeException sdk = failedCall(McpClient.sync(new Silent()).requestTimeout(Duration.ofMillis(300))
                .build());
        RuntimeException ours = failedCall(new McpOutcome.NoReply(Duration.ofMillis(300), List.of()));
        assertSame(sdk, ours);
        assertEquals(McpClientFailures.timeout(Duration.ofMillis(300)).getMessage(),
                Exceptions.unwrap(sdk).getMessage());
    }

    @Test
    void throttledIsWhatTheStreamableHttpTransportRaisesForA429() throws Exception {
        try (StatusServer server = new StatusServer()) {
            server.next(StatusServer.Failure.THROTTLED);
            RuntimeException sdk = failedCall(McpClient.sync(HttpClientStreamableHttpTransport
                    .builder(server.baseUri()).build()).build());
            assertSame(sdk, failedCall(new McpOutcome.Throttled(Duration.ofSeconds(2))));
        }
    }

    @Test
    void sessionNotFoundIsWhatTheStreamableHttpTransportMakesOfA404ForTheSession() throws Exception {
        try (StatusServer server = new StatusServer()) {
            server.next(StatusServer.Failure.SESSION_NOT_FOUND);
            McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.baseUri())
                    .build()).build();
            RuntimeException sdk = failedCall(client);
            assertSame(sdk, failedCall(new McpOutcome.SessionNotFound()));
            // The SDK's client initialized again by itself and calls on.
            assertEquals(false, client.callTool(REFUND).isError());
        }
    }

    @Test
    void serverGoneIsWhatTheStreamableHttpTransportRaisesWhenTheConnectionGoesAway() throws Exception {
        try (StatusServer server = new StatusServer()) {
            server.next(StatusServer.Failure.RESET);
            RuntimeException sdk = failedCall(McpClient.sync(HttpClientStreamableHttpTransport
                    .builder(server.baseUri()).build()).build());
            RuntimeException ours = failedCall(new McpOutcome.ServerGone("Connection reset"));
            assertEquals(sdk.getClass(), ours.getClass(), ours.toString());
            assertEquals(Exceptions.unwrap(sdk).getClass(), Exceptions.unwrap(ours).getClass(), sdk.toString());
        }
    }
}
