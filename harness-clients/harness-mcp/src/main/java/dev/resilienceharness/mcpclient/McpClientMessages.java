package dev.resilienceharness.mcpclient;

import java.time.Duration;

/**
 * What harness-mcp's own code throws, in one place so that tests and the troubleshooting page quote it exactly. The
 * failures a client sees from a server under a fault are the SDK's own, in {@link McpClientFailures}.
 */
final class McpClientMessages {

    /** The transport was used before the client connected it. */
    static final String SENT_BEFORE_CONNECT = "the MCP client sent a message before it connected its transport";

    /** The SDK's JSON mapper could not write the client's message. */
    static final String NOT_WRITABLE = "the MCP client's message cannot be written as JSON";

    /** The run's answer is not a JSON-RPC message the SDK can read. */
    static final String NOT_JSON_RPC = "the run answered with a message that is not JSON-RPC";

    private McpClientMessages() {
    }

    /** A zero or negative request timeout handed to {@link HarnessMcp}. */
    static String nonPositiveTimeout(Duration requestTimeout) {
        return "the request timeout must be positive, not " + requestTimeout;
    }

    /** An outcome of harness-core's engine that this adapter predates. */
    static String unknownOutcome(Object outcome) {
        return "an MCP outcome this transport does not know: " + outcome;
    }
}
