package dev.resilienceharness.mcp.live;

import dev.resilienceharness.cassette.CassetteMessages;
import dev.resilienceharness.mcp.McpServer;
import java.time.Duration;

/** The texts of live MCP failures, in one place so that tests and docs can quote them. */
final class LiveMessages {

    private LiveMessages() {
    }

    /** {@code MCP server 'billing' (stdio)}: who failed, as every message starts. */
    static String who(McpServer server) {
        return "MCP server '" + server.name() + "' (" + server.transport().key() + ")";
    }

    static String noCommand(McpServer server) {
        return who(server) + " has no command to start. Declare mcp_servers." + server.name()
                + ".command in the yaml";
    }

    static String noUrl(McpServer server) {
        return who(server) + " has no url. Declare mcp_servers." + server.name() + ".url in the yaml";
    }

    static String cannotStart(McpServer server, String reason) {
        return who(server) + ": cannot start " + String.join(" ", server.command()) + ": " + reason
                + ". Check mcp_servers." + server.name() + ".command: its program must be on the PATH or a path"
                + " to an executable file";
    }

    static String exited(McpServer server, String method, String exit, String lastError) {
        return who(server) + " exited (" + exit + ") before answering '" + method + "'"
                + (lastError == null ? "" : "; the last line of its standard error: "
                        + CassetteMessages.abbreviate(lastError))
                + ". Run mcp_servers." + server.name() + ".command by hand to see why it stops";
    }

    static String refused(McpServer server, String reason) {
        return who(server) + ": " + server.url() + " cannot be reached (" + reason + "). Start the server, or fix"
                + " mcp_servers." + server.name() + ".url";
    }

    static String badUrl(McpServer server, String reason) {
        return who(server) + ": '" + server.url() + "' is not an http or https url (" + reason
                + "). Fix mcp_servers." + server.name() + ".url";
    }

    static String garbage(McpServer server, String method, String what) {
        return who(server) + " answered '" + method + "' with something that is not JSON-RPC: '"
                + CassetteMessages.abbreviate(what) + "'. Check that "
                + (server.transport() == dev.resilienceharness.mcp.McpTransportKind.STDIO
                        ? "its command starts an MCP server that writes only JSON-RPC messages, one a line, on"
                                + " its standard output (logs go to standard error)"
                        : "mcp_servers." + server.name() + ".url is the server's MCP endpoint");
    }

    static String status(McpServer server, String method, int status, String body) {
        return who(server) + " answered '" + method + "' with HTTP " + status
                + (body.isBlank() ? "" : ": " + CassetteMessages.abbreviate(body))
                + (status == 404 ? ". Its session ended; record again" : ". Check mcp_servers." + server.name()
                        + ".url and the server's log");
    }

    static String noAnswer(McpServer server, String method, Duration timeout) {
        return who(server) + " did not answer '" + method + "' within " + timeout.toMillis() + " ms. Check that"
                + " the server is up and not stuck, then record again";
    }

    static String noInitialize(McpServer server, String method) {
        return who(server) + ": the first request to record is '" + method + "', and no initialize of the"
                + " client is known to open a live session with. Delete mcp/" + server.name()
                + "/ from the cassette folder and record again, so that the client's initialize is recorded too";
    }

    static String notDeclared(String server) {
        return "MCP server '" + server + "' is not in the yaml's mcp_servers:, so it cannot be recorded. Declare it"
                + " with its transport and its url or command";
    }

    static String refusedToWrite(McpServer server, String why) {
        return who(server) + ": " + why;
    }
}
