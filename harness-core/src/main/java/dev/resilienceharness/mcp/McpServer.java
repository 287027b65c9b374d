package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One entry of the yaml's {@code mcp_servers:} (docs mcp.md): an MCP server the loop reaches, and where a recording
 * run finds the real one.
 *
 * @param name       the server's name, as the yaml, {@code LoopRun.mcp} and the cassette folder name it
 * @param transport  how a recording run reaches it
 * @param url        for {@link McpTransportKind#STREAMABLE_HTTP}, the endpoint's URL; else {@code null}
 * @param command    for {@link McpTransportKind#STDIO}, the process to start, program first; else empty
 * @param env        variables set for the stdio process, on top of the build's own; empty when none
 * @param workingDir the stdio process's working folder as written, or {@code null} for the build's
 * @param line       the line of the declaration in its yaml file, or 0 when it was built in code
 */
@API(status = INTERNAL, since = "0.1.0")
public record McpServer(String name, McpTransportKind transport, String url, List<String> command,
        Map<String, String> env, String workingDir, int line) {

    public McpServer {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(transport, "transport");
        command = List.copyOf(command);
        env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
    }

    /** A server reached over Streamable HTTP at {@code url}. */
    public static McpServer http(String name, String url) {
        return new McpServer(name, McpTransportKind.STREAMABLE_HTTP, url, List.of(), Map.of(), null, 0);
    }

    /** A server started as the process {@code command}, spoken to over stdio. */
    public static McpServer stdio(String name, List<String> command) {
        return new McpServer(name, McpTransportKind.STDIO, null, command, Map.of(), null, 0);
    }
}
