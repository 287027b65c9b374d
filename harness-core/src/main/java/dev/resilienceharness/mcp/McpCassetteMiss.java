package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A request to a replayed MCP server that no recording answers: the run fails loudly rather than answer with a
 * default. The message names the server, the method, the params' fingerprint (never the params: they may hold what a
 * log must not show), the nearest recorded request of that method, and how to record.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class McpCassetteMiss extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String server;
    private final transient McpRequestKey key;

    McpCassetteMiss(String server, McpRequestKey key, String message) {
        super(message, null, false, false);
        this.server = server;
        this.key = key;
    }

    /** The server's name. */
    public String server() {
        return server;
    }

    /** The method and params' fingerprint looked for. */
    public McpRequestKey key() {
        return key;
    }
}
