package dev.resilienceharness.clients.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.mcp.client.McpCallContext;
import dev.langchain4j.mcp.client.transport.McpOperationHandler;
import dev.langchain4j.mcp.client.transport.McpTransport;
import dev.langchain4j.mcp.protocol.McpClientMessage;
import dev.langchain4j.mcp.protocol.McpInitializationNotification;
import dev.langchain4j.mcp.protocol.McpInitializeRequest;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.mcp.McpOutcome;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A langchain4j-mcp {@link McpTransport} whose every message goes to one MCP server of a scenario run (its
 * {@link McpEndpoint}, layer {@value #LAYER}), and whose answers reach the client as langchain4j-mcp 1.18.1's
 * Streamable HTTP transport delivers a real server's: a 404 for the session re-initializes and sends the request once
 * more, a 429 or a dropped connection fails the request, and no answer leaves the client to its own timeout, which
 * fires at once because the run's virtual clock has already run it out. It never waits for real.
 */
final class HarnessMcpTransport implements McpTransport {

    /** How the trace and the {@code side_effects} invariant name what langchain4j-mcp sends. */
    static final String LAYER = "langchain4j-mcp";

    // langchain4j-mcp's own message classes are Jackson 2 beans; its transports write them with a plain mapper.
    private static final ObjectMapper JSON = new ObjectMapper();

    private final McpEndpoint endpoint;
    private final McpClientTimeouts timeouts;
    /** The tools/call requests no answer came to, by id: the client answers each with its timeout text. */
    private final Map<Long, String> unanswered = new ConcurrentHashMap<>();
    private volatile McpOperationHandler handler;
    private volatile McpInitializeRequest initializeRequest;

    HarnessMcpTransport(McpEndpoint endpoint, McpClientTimeouts timeouts) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
    }

    @Override
    public void start(McpOperationHandler messageHandler) {
        this.handler = messageHandler;
    }

    @Override
    public CompletableFuture<JsonNode> initialize(McpInitializeRequest request) {
        this.initializeRequest = request;
        CompletableFuture<JsonNode> answer = exchange(request, false);
        if (!answer.isDone() || answer.isCompletedExceptionally()) {
            return answer;
        }
        // As langchain4j-mcp's transports do: notifications/initialized once the server has answered.
        CompletableFuture<JsonNode> initialized = exchange(new McpInitializationNotification(), false);
        return initialized.isCompletedExceptionally() ? initialized : answer;
    }

    @Override
    public CompletableFuture<JsonNode> executeOperationWithResponse(McpClientMessage request) {
        return exchange(request, false);
    }

    @Override
    public CompletableFuture<JsonNode> executeOperationWithResponse(McpCallContext context) {
        return exchange(context.message(), false);
    }

    @Override
    public void executeOperationWithoutResponse(McpClientMessage message) {
        exchange(message, false);
    }

    @Override
    public void executeOperationWithoutResponse(McpCallContext context) {
        exchange(context.message(), false);
    }

    @Override
    public void checkHealth() {
        // The Streamable HTTP transport has no check of its own either; the client's ping is the check.
    }

    /**
     * Kept and never run: langchain4j-mcp 1.18.1's Streamable HTTP and stdio transports never call it either, so its
     * reconnect (a real sleep of {@code reconnectInterval}, then a new initialize) never runs for them.
     */
    @Override
    public void onFailure(Runnable actionOnFailure) {
        // nothing to do; see the Javadoc
    }

    @Override
    public void close() {
        unanswered.clear();
    }

    private CompletableFuture<JsonNode> exchange(McpClientMessage message, boolean resent) {
        String text;
        try {
            text = JSON.writeValueAsString(message);
        } catch (JsonProcessingException e) {
            return CompletableFuture.failedFuture(e);
        }
        String method = method(text);
        if ("notifications/cancelled".equals(method)) {
            noteCancelled(text);
        }
        Long id = message.getId();
        McpOutcome outcome = endpoint.send(text, timeouts.of(method));
        if (outcome instanceof McpOutcome.Reply reply) {
            return delivered(id, reply.messages());
        }
        if (outcome instanceof McpOutcome.NoReply none) {
            deliver(none.messages());
            return unanswered(id, method, text);
        }
        if (outcome instanceof McpOutcome.SessionNotFound) {
            return sessionNotFound(message, resent, id, method, text);
        }
        if (outcome instanceof McpOutcome.Throttled) {
            return CompletableFuture.failedFuture(new RuntimeException(Langchain4jMessages.unexpectedStatus(429)));
        }
        McpOutcome.ServerGone gone = (McpOutcome.ServerGone) outcome;
        // What java.net.http reports for a connection that closed or reset under a request.
        return CompletableFuture.failedFuture(new IOException(gone.detail()));
    }

    /**
     * A 404 for the session, as the Streamable HTTP transport meets it: for {@code initialize} an unexpected status;
     * else one new initialize with the client's first request, then the request sent again. A second 404 leaves the
     * request unanswered, as that transport does, until the client's timeout: the run is told the client waited it,
     * since no outcome of the endpoint ran it out.
     */
    private CompletableFuture<JsonNode> sessionNotFound(McpClientMessage message, boolean resent, Long id,
            String method, String text) {
        if (message instanceof McpInitializeRequest || initializeRequest == null) {
            return CompletableFuture.failedFuture(new RuntimeException(Langchain4jMessages.unexpectedStatus(404)));
        }
        if (resent) {
            if (id != null) {
                endpoint.clientWaited(text, timeouts.of(method));
            }
            return unanswered(id, method, text);
        }
        CompletableFuture<JsonNode> initialized = initialize(initializeRequest);
        if (!initialized.isDone()) {
            return unanswered(id, method, text);
        }
        if (initialized.isCompletedExceptionally()) {
            return initialized;
        }
        return exchange(message, true);
    }

    private CompletableFuture<JsonNode> delivered(Long id, java.util.List<String> messages) {
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        if (id == null) {
            deliver(messages);
            answer.complete(null);
            return answer;
        }
        handler.startOperation(id, answer);
        deliver(messages);
        // A reply without the request's answer leaves the client waiting, as it would on a real server.
        return answer.isDone() ? answer : new TimedOut();
    }

    private void deliver(java.util.List<String> messages) {
        for (String m : messages) {
            try {
                handler.handle(JSON.readTree(m));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private CompletableFuture<JsonNode> unanswered(Long id, String method, String text) {
        if (id != null && "tools/call".equals(method)) {
            unanswered.put(id, text);
        }
        return new TimedOut();
    }

    /** The client gave up on a tools/call no answer came to: it hands the loop its timeout text instead. */
    private void noteCancelled(String text) {
        JsonNode requestId = readTree(text).path("params").path("requestId");
        if (requestId.canConvertToLong()) {
            String request = unanswered.remove(requestId.asLong());
            if (request != null) {
                endpoint.failureAnsweredAsText(request, timeouts.timeoutText());
            }
        }
    }

    private static String method(String text) {
        JsonNode method = readTree(text).get("method");
        return method == null ? null : method.asText();
    }

    private static JsonNode readTree(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A request whose answer never comes: the client's own timeout fires as soon as it waits, since the run's virtual
     * clock has already run it out.
     */
    private static final class TimedOut extends CompletableFuture<JsonNode> {

        @Override
        public JsonNode get(long timeout, TimeUnit unit) throws TimeoutException {
            throw new TimeoutException(Langchain4jMessages.mcpNoAnswer(unit.toMillis(timeout)));
        }

        @Override
        public JsonNode get() {
            throw new IllegalStateException(Langchain4jMessages.MCP_WAIT_FOREVER);
        }

        @Override
        public JsonNode join() {
            throw new IllegalStateException(Langchain4jMessages.MCP_WAIT_FOREVER);
        }
    }
}
