package dev.resilienceharness.clients.langchain4j;

import java.time.Duration;

/**
 * The waits a langchain4j-mcp {@code DefaultMcpClient} gives each kind of request, and the text it answers a timed-out
 * tool call with: what the adapter hands the run's MCP endpoint as the client's timeout, so that {@code timeout},
 * {@code hang} and a long {@code slow} run out what this client would wait.
 *
 * @param initialization {@code initializationTimeout}, for {@code initialize}
 * @param toolExecution  {@code toolExecutionTimeout}, for {@code tools/call} and {@code tools/list}
 * @param resources      {@code resourcesTimeout}, for the {@code resources/*} requests
 * @param prompts        {@code promptsTimeout}, for {@code prompts/list} and {@code prompts/get}
 * @param ping           {@code pingTimeout}, for {@code ping}
 * @param timeoutText    {@code toolExecutionTimeoutErrorMessage}, the text a timed-out tool call is answered with
 */
record McpClientTimeouts(Duration initialization, Duration toolExecution, Duration resources, Duration prompts,
        Duration ping, String timeoutText) {

    /** langchain4j-mcp 1.18.1's own defaults ({@code DefaultMcpClient}'s constructor). */
    static final McpClientTimeouts DEFAULTS = new McpClientTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(60),
            Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofSeconds(10),
            "There was a timeout executing the tool");

    /** How long the client waits for the answer to {@code method}. */
    Duration of(String method) {
        if ("initialize".equals(method)) {
            return initialization;
        }
        if ("ping".equals(method)) {
            return ping;
        }
        Duration wait;
        if (method != null && method.startsWith("resources/")) {
            wait = resources;
        } else if (method != null && method.startsWith("prompts/")) {
            wait = prompts;
        } else {
            wait = toolExecution;
        }
        // For these the client reads a zero timeout as none, and then waits Integer.MAX_VALUE milliseconds.
        return wait.isZero() ? Duration.ofMillis(Integer.MAX_VALUE) : wait;
    }
}
