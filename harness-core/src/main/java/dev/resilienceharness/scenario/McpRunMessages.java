package dev.resilienceharness.scenario;

import java.time.Duration;
import java.util.Collection;

/** What an MCP server says in a scenario run, and what a run fails with, in one place so tests and docs quote them. */
final class McpRunMessages {

    private McpRunMessages() {
    }

    static String undeclared(String server, Collection<String> declared) {
        return "MCP server '" + server + "' is not declared in mcp_servers" + (declared.isEmpty()
                ? "; declare it under mcp_servers: with its transport" : "; the declared MCP servers are: "
                        + String.join(", ", declared));
    }

    static String notJsonRpc(String server) {
        return "the message sent to MCP server '" + server + "' is not a JSON-RPC message: it needs a string method,"
                + " or an id with a result or an error";
    }

    static String toolError(String tool, int call) {
        return "tool '" + tool + "' failed (injected error fault on its call " + call + ")";
    }

    static String protocolError(String method, long code) {
        return "the server could not process " + method + " (injected protocol_error " + code + ")";
    }

    static String exited(String server, String method) {
        return "MCP server '" + server + "' went away while answering " + method + " (injected server_exit)";
    }

    static String stillGone(String server) {
        return "MCP server '" + server + "' is gone since it exited; start a new session with initialize";
    }

    static String endedWithProcess(String server) {
        return "MCP server '" + server + "' ended with the process that started it; start a new session with"
                + " initialize";
    }

    static String cassetteUnusable(String server, String problem) {
        return "the MCP cassettes of server '" + server + "' cannot be read: " + problem;
    }

    static String liveFailed(String server, String method, String problem) {
        return "recording " + method + " from MCP server '" + server + "' failed: " + problem;
    }

    static String noSchemaToBreak(String tool, String server) {
        return "invalid_result on tool '" + tool + "' of MCP server '" + server + "' has no output schema to break:"
                + " declare output_schema: under tools." + tool + ", or record a tools/list in which the server gives"
                + " the tool's outputSchema";
    }

    static String negativeWait(String server, Duration waited) {
        return "a client of MCP server '" + server + "' cannot have waited " + waited.toMillis() + " ms: a wait is zero"
                + " or more";
    }

    static String notSent(String server, String request) {
        return "no request " + request + " was sent to MCP server '" + server + "' in this run";
    }
}
