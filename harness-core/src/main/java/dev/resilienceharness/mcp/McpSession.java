package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One recorded session of an MCP server: who it was, how it was reached, and its exchanges in the order they happened.
 *
 * @param file      the file it was read from, or {@code null} for a session not read from a file
 * @param server    the server's name, as the configuration names it
 * @param transport the transport it was recorded over
 * @param exchanges its requests, answers and notifications, in order
 */
@API(status = INTERNAL, since = "0.1.0")
public record McpSession(Path file, String server, McpTransportKind transport, List<McpExchange> exchanges) {

    public McpSession {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(transport, "transport");
        exchanges = List.copyOf(exchanges);
    }

    /** A session not read from a file. */
    public McpSession(String server, McpTransportKind transport, List<McpExchange> exchanges) {
        this(null, server, transport, exchanges);
    }
}
