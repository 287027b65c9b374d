package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** The transport an MCP session was recorded over, as a session file names it. */
@API(status = INTERNAL, since = "0.1.0")
public enum McpTransportKind {
    /** A server process the client started, speaking JSON-RPC on its standard input and output. */
    STDIO("stdio"),
    /** The Streamable HTTP transport: JSON-RPC over HTTP POST, answers as JSON or server-sent events. */
    STREAMABLE_HTTP("streamable-http");

    private final String key;

    McpTransportKind(String key) {
        this.key = key;
    }

    /** The name in a session file: {@code stdio} or {@code streamable-http}. */
    public String key() {
        return key;
    }

    /** The transport named {@code key} in a session file, or {@code null} when none is. */
    public static McpTransportKind fromKey(String key) {
        for (McpTransportKind kind : values()) {
            if (kind.key.equals(key)) {
                return kind;
            }
        }
        return null;
    }
}
