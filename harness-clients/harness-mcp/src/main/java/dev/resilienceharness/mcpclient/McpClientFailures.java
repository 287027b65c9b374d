package dev.resilienceharness.mcpclient;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * The failures the MCP Java SDK's own code raises, rebuilt with the SDK's texts (mcp 2.2.0, Reactor underneath), so
 * that a client over a run sees what it sees from a real server.
 */
final class McpClientFailures {

    private McpClientFailures() {
    }

    /**
     * What {@code McpClientSession.sendRequest}'s {@code Mono.timeout(requestTimeout)} raises when no answer came in
     * time, with the text Reactor gives it.
     */
    static TimeoutException timeout(Duration waited) {
        return new TimeoutException("Did not observe any item or terminal signal within " + waited.toMillis()
                + "ms in 'source(MonoDeferContextual)' (and no fallback has been configured)");
    }

    /** What the Streamable HTTP transport raises for a 404 to a request that carried no session. */
    static String serverNotFound() {
        return "Server Not Found. Status code:404";
    }

    /** What the Streamable HTTP transport raises for a 429 (it has no case of its own for it, and no retry). */
    static String throttled() {
        return "Received unexpected status code: 429";
    }
}
