package dev.resilienceharness.config;

import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import dev.resilienceharness.mcp.McpCassetteFiles;
import dev.resilienceharness.mcp.McpServer;
import dev.resilienceharness.mcp.McpTransportKind;
import dev.resilienceharness.tool.ToolFault;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code mcp_servers:} and a scenario's {@code mcp_faults:} strictly (docs mcp.md): each server says how a
 * recording run reaches it, and every session fault names a declared server.
 */
final class McpEntries {

    static final List<String> KEYS = List.of("transport", "url", "command", "env", "working_dir");
    static final List<String> TRANSPORTS = List.of("stdio", "streamable_http");
    private static final String STDIO_ONLY = "a stdio server's process is started with command: [...], env: and"
            + " working_dir:";

    private McpEntries() {
    }

    /** The {@code mcp_servers:} block, by server name in the order written. */
    static Map<String, McpServer> read(NodeReader r, YamlNode v) throws ConfigException {
        if (!(v instanceof YamlNode.Mapping m)) {
            throw r.wrongType(v, "mcp_servers", "a mapping from MCP server name to how it is reached, such as"
                    + " billing: {transport: streamable_http, url: http://127.0.0.1:8080/mcp}", "write {} for none");
        }
        Map<String, McpServer> servers = new LinkedHashMap<>();
        for (YamlNode.Entry e : m.entries()) {
            String path = NodeReader.child("mcp_servers", e.key());
            if (!McpCassetteFiles.validName(e.key())) {
                throw r.error(e, path, ConfigMessages.badMcpServerName(e.key()));
            }
            servers.put(e.key(), server(r, e, path));
        }
        return servers;
    }

    private static McpServer server(NodeReader r, YamlNode.Entry e, String path) throws ConfigException {
        YamlNode.Mapping m = r.mapping(e.value(), path, "a mapping with transport (stdio or streamable_http) and url"
                + " or command", KEYS);
        YamlNode transportNode = r.require(m, path, "transport", "stdio or streamable_http");
        boolean stdio = r.oneOf(transportNode, NodeReader.child(path, "transport"), TRANSPORTS).equals("stdio");
        if (stdio) {
            if (m.get("url") != null) {
                throw r.error(m.entry("url"), NodeReader.child(path, "url"), ConfigMessages
                        .mcpSettingOfOtherTransport("url", "stdio", "a stdio server is started with command: [...]"));
            }
            YamlNode commandNode = r.require(m, path, "command", "the server process to start, program first, such as"
                    + " [java, -jar, server.jar]");
            String commandPath = NodeReader.child(path, "command");
            List<YamlNode> items = r.nonEmptyList(commandNode, commandPath, "the server process to start, program"
                    + " first, such as [java, -jar, server.jar]");
            List<String> command = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                String argPath = NodeReader.index(commandPath, i);
                command.add(i == 0 ? r.nonBlankText(items.get(i), argPath, "the program to start")
                        : r.sourceText(items.get(i), argPath, "an argument of the program"));
            }
            Map<String, String> env = new LinkedHashMap<>();
            if (m.get("env") != null) {
                String envPath = NodeReader.child(path, "env");
                if (!(m.get("env") instanceof YamlNode.Mapping vars)) {
                    throw r.wrongType(m.get("env"), envPath, "a mapping from variable name to value, such as"
                            + " {LOG_LEVEL: warn}", "write {} for none");
                }
                for (YamlNode.Entry var : vars.entries()) {
                    String value = r.sourceText(var.value(), NodeReader.child(envPath, var.key()),
                            "the variable's value, as text");
                    env.put(var.key(), value == null ? "" : value);
                }
            }
            String workingDir = m.get("working_dir") == null ? null : r.nonBlankText(m.get("working_dir"),
                    NodeReader.child(path, "working_dir"), "the folder to start the server process in");
            return new McpServer(e.key(), McpTransportKind.STDIO, null, command, env, workingDir, e.line());
        }
        for (String key : List.of("command", "env", "working_dir")) {
            if (m.get(key) != null) {
                throw r.error(m.entry(key), NodeReader.child(path, key),
                        ConfigMessages.mcpSettingOfOtherTransport(key, "streamable_http", STDIO_ONLY));
            }
        }
        YamlNode urlNode = r.require(m, path, "url", "the server's Streamable HTTP endpoint, such as"
                + " http://127.0.0.1:8080/mcp");
        String urlPath = NodeReader.child(path, "url");
        String url = r.nonBlankText(urlNode, urlPath, "the server's Streamable HTTP endpoint");
        if (!httpUrl(url)) {
            throw r.error(urlNode, urlPath, ConfigMessages.badMcpUrl(urlNode.describe()));
        }
        return new McpServer(e.key(), McpTransportKind.STREAMABLE_HTTP, url, List.of(), Map.of(), null, e.line());
    }

    private static boolean httpUrl(String url) {
        try {
            URI uri = new URI(url);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** A scenario's {@code mcp_faults:}, against the declared {@code servers}. */
    static Map<String, List<ToolFault>> faults(NodeReader r, YamlNode v, String path, Map<String, McpServer> servers)
            throws ConfigException {
        if (!(v instanceof YamlNode.Mapping m)) {
            throw r.wrongType(v, path, "a mapping from a declared MCP server's name to its list of session faults,"
                    + " such as billing: [none, session_expired]", "write {} for none");
        }
        Map<String, List<ToolFault>> faults = new LinkedHashMap<>();
        for (YamlNode.Entry e : m.entries()) {
            String serverPath = NodeReader.child(path, e.key());
            if (!servers.containsKey(e.key())) {
                throw r.error(e, serverPath, ConfigMessages.undeclaredMcpServer(e.key(),
                        DidYouMean.suggest(e.key(), servers.keySet()), servers.keySet()));
            }
            List<YamlNode> items = r.list(e.value(), serverPath, "a list of MCP faults, consumed one per request to "
                    + e.key());
            List<ToolFault> list = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                list.add(ToolEntries.fault(r, items.get(i), NodeReader.index(serverPath, i),
                        new ToolEntries.Target(null, e.key())));
            }
            faults.put(e.key(), list);
        }
        return faults;
    }
}
