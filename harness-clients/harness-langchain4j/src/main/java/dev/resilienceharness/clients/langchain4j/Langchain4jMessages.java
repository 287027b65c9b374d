package dev.resilienceharness.clients.langchain4j;

import java.time.Duration;

/** Every message the adapter writes, in one place. */
final class Langchain4jMessages {

    private Langchain4jMessages() {
    }

    static String timedOut(Duration after) {
        return "request timed out: no answer within the read timeout of " + after.toMillis() + " ms (a timeout"
                + " fault of the scenario, on the virtual clock)";
    }

    /** What langchain4j-mcp's Streamable HTTP transport fails a request with when the server answers {@code status}. */
    static String unexpectedStatus(int status) {
        return "Unexpected status code: " + status;
    }

    static String mcpNoAnswer(long waitedMs) {
        return "no answer from the MCP server within " + waitedMs + " ms (a timeout fault of the scenario, on the"
                + " virtual clock)";
    }

    static final String MCP_WAIT_FOREVER = "no answer will come from the MCP server and this wait has no timeout; wait"
            + " with get(timeout, unit), as DefaultMcpClient does";
}
