package dev.resilienceharness.config;

import dev.resilienceharness.config.yaml.JsonValues;
import dev.resilienceharness.config.yaml.NodeReader;
import dev.resilienceharness.config.yaml.YamlNode;
import dev.resilienceharness.tool.BrokenResult;
import dev.resilienceharness.tool.ToolDeclaration;
import dev.resilienceharness.tool.ToolFault;
import dev.resilienceharness.transport.ToolSchemas;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Reads {@code tools:} and a scenario's {@code tool_faults:} strictly (docs tools.md): every tool a fault names is
 * declared, and {@code invalid_result} only for a tool whose {@code output_schema} it can break.
 */
final class ToolEntries {

    static final List<String> KEYS = List.of("side_effects", "replay", "output_schema", "idempotency_key", "timeout",
            "server");
    static final List<String> REPLAY = List.of("live", "recorded");
    private static final String SLOW_EXAMPLE = "{slow: 5s}";

    private ToolEntries() {
    }

    /** The {@code tools:} block, by tool name in the order written. */
    static Map<String, ToolDeclaration> read(NodeReader r, YamlNode v) throws ConfigException {
        if (!(v instanceof YamlNode.Mapping m)) {
            throw r.wrongType(v, "tools", "a mapping from tool name (as the model sees it) to its settings, such as"
                    + " refund: {side_effects: true}", "write {} for none");
        }
        Map<String, ToolDeclaration> tools = new LinkedHashMap<>();
        for (YamlNode.Entry e : m.entries()) {
            String path = NodeReader.child("tools", e.key());
            if (e.key().isBlank()) {
                throw r.error(e, path, ConfigMessages.expected("a tool name as the model sees it", "an empty text"));
            }
            tools.put(e.key(), declaration(r, e, path));
        }
        return tools;
    }

    private static ToolDeclaration declaration(NodeReader r, YamlNode.Entry e, String path) throws ConfigException {
        if (e.value() instanceof YamlNode.Scalar s && s.isNull()) {
            return new ToolDeclaration(e.key(), false, ToolDeclaration.Replay.LIVE, null, null,
                    ToolDeclaration.DEFAULT_TIMEOUT, e.line());
        }
        YamlNode.Mapping m = r.mapping(e.value(), path, "a mapping of tool settings (side_effects, replay,"
                + " output_schema, idempotency_key, timeout, server), or {} for a read-only tool", KEYS);
        boolean sideEffects = false;
        if (m.get("side_effects") != null) {
            YamlNode b = m.get("side_effects");
            if (!(b instanceof YamlNode.Scalar s) || s.type() != YamlNode.ScalarType.BOOLEAN) {
                throw r.wrongType(b, NodeReader.child(path, "side_effects"), "true or false", null);
            }
            sideEffects = Boolean.parseBoolean(s.text());
        }
        ToolDeclaration.Replay replay = ToolDeclaration.Replay.LIVE;
        if (m.get("replay") != null) {
            replay = r.oneOf(m.get("replay"), NodeReader.child(path, "replay"), REPLAY).equals("recorded")
                    ? ToolDeclaration.Replay.RECORDED : ToolDeclaration.Replay.LIVE;
        }
        JsonNode schema = null;
        if (m.get("output_schema") != null) {
            String schemaPath = NodeReader.child(path, "output_schema");
            schema = JsonValues.value(r, m.get("output_schema"), schemaPath);
            String problem = ToolSchemas.outputSchemaProblem(schema);
            if (problem != null) {
                throw r.error(m.get("output_schema"), schemaPath, ConfigMessages.badToolSchema("the output schema "
                        + problem));
            }
        }
        String key = null;
        if (m.get("idempotency_key") != null) {
            String keyPath = NodeReader.child(path, "idempotency_key");
            String what = "where the tool's idempotency key is: a JSON pointer into its arguments such as"
                    + " /refund_id, or passed for the key the loop passes to run.tool";
            key = r.nonBlankText(m.get("idempotency_key"), keyPath, what);
            if (!key.equals(ToolDeclaration.PASSED) && !key.startsWith("/")) {
                throw r.error(m.get("idempotency_key"), keyPath, ConfigMessages.expected(what,
                        m.get("idempotency_key").describe()));
            }
        }
        Duration timeout = ToolDeclaration.DEFAULT_TIMEOUT;
        if (m.get("timeout") != null) {
            timeout = r.duration(m.get("timeout"), NodeReader.child(path, "timeout"));
            if (timeout.isZero() || timeout.isNegative()) {
                throw r.error(m.get("timeout"), NodeReader.child(path, "timeout"),
                        ConfigMessages.expected("a timeout longer than zero, such as 30s", m.get("timeout").describe()));
            }
        }
        String server = null;
        if (m.get("server") != null) {
            server = r.nonBlankText(m.get("server"), NodeReader.child(path, "server"),
                    "the name of the MCP server that serves the tool, as mcp_servers declares it");
            if (m.get("replay") != null) {
                throw r.error(m.entry("replay"), NodeReader.child(path, "replay"), ConfigMessages.replayOfMcpTool(
                        e.key()));
            }
        }
        return new ToolDeclaration(e.key(), sideEffects, replay, schema, key, timeout, server, e.line());
    }

    /** Every {@code server:} of the {@code tools:} block {@code v} names a server of {@code mcp_servers:}. */
    static void checkServers(NodeReader r, YamlNode v, Map<String, ToolDeclaration> tools,
            Map<String, dev.resilienceharness.mcp.McpServer> servers) throws ConfigException {
        for (YamlNode.Entry e : ((YamlNode.Mapping) v).entries()) {
            ToolDeclaration tool = tools.get(e.key());
            if (tool.server() != null && !servers.containsKey(tool.server())) {
                YamlNode at = ((YamlNode.Mapping) e.value()).get("server");
                throw r.error(at, NodeReader.child(NodeReader.child("tools", e.key()), "server"),
                        ConfigMessages.undeclaredMcpServer(tool.server(),
                                DidYouMean.suggest(tool.server(), servers.keySet()), servers.keySet()));
            }
        }
    }

    /** A scenario's {@code tool_faults:}, against the declared {@code tools}. */
    static Map<String, List<ToolFault>> faults(NodeReader r, YamlNode v, String path, Map<String, ToolDeclaration> tools)
            throws ConfigException {
        if (!(v instanceof YamlNode.Mapping m)) {
            throw r.wrongType(v, path, "a mapping from a declared tool's name to its list of faults, such as"
                    + " refund: [timeout_after_commit]", "write {} for none");
        }
        Map<String, List<ToolFault>> faults = new LinkedHashMap<>();
        for (YamlNode.Entry e : m.entries()) {
            String toolPath = NodeReader.child(path, e.key());
            ToolDeclaration tool = tools.get(e.key());
            if (tool == null) {
                throw r.error(e, toolPath, ConfigMessages.undeclaredTool(e.key(),
                        DidYouMean.suggest(e.key(), tools.keySet()), tools.keySet()));
            }
            List<YamlNode> items = r.list(e.value(), toolPath, "a list of tool faults, consumed one per execution of "
                    + e.key());
            List<ToolFault> list = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                list.add(fault(r, items.get(i), NodeReader.index(toolPath, i), new Target(tool, null)));
            }
            faults.put(e.key(), list);
        }
        return faults;
    }

    /**
     * Who meets a fault: a tool ({@code server} {@code null}), local or served by an MCP server, or the session of
     * the MCP server {@code server} ({@code tool} {@code null}).
     */
    record Target(ToolDeclaration tool, String server) {

        boolean session() {
            return tool == null;
        }

        boolean mcp() {
            return session() || tool.mcp();
        }

        List<String> kinds() {
            return session() ? ToolFault.Kind.sessionIds() : tool.mcp() ? ToolFault.Kind.mcpIds()
                    : ToolFault.Kind.ids();
        }
    }

    /** One fault entry for {@code target}: a bare kind, or one key with its settings. */
    static ToolFault fault(NodeReader r, YamlNode node, String path, Target target) throws ConfigException {
        if (node instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING) {
            ToolFault.Kind kind = kind(r, s.text(), s, path, target);
            if (kind == ToolFault.Kind.SLOW) {
                throw r.error(s, path, ConfigMessages.faultNeedsSettings("slow", SLOW_EXAMPLE));
            }
            if (kind == ToolFault.Kind.INVALID_RESULT) {
                invalidResult(r, s, path, target.tool());
            }
            return ToolFault.of(kind);
        }
        if (node instanceof YamlNode.Mapping m) {
            YamlNode.Entry entry = m.entries().isEmpty() ? null : m.entries().get(0);
            boolean slowWithProgress = m.entries().size() == 2 && m.get("slow") != null;
            if (slowWithProgress) {
                entry = m.entry("slow");
            } else if (m.entries().size() != 1) {
                throw r.error(node, path, ConfigMessages.toolFaultMappingSize(m.entries().size()));
            }
            String kindPath = NodeReader.child(path, entry.key());
            ToolFault.Kind kind = kind(r, entry.key(), entry, kindPath, target);
            return switch (kind) {
                case SLOW -> slow(r, m, entry, path, kindPath, target);
                case PROTOCOL_ERROR -> ToolFault.protocolError(code(r, entry.value(), kindPath));
                case RATE_LIMITED -> ToolFault.rateLimited(r.duration(entry.value(), kindPath));
                default -> throw r.error(entry, kindPath, ConfigMessages.faultTakesNoSettings(entry.key()));
            };
        }
        String shown = target.session() ? "an MCP fault: one of " : "a tool fault: one of ";
        throw r.error(node, path, ConfigMessages.expected(shown + String.join(", ", target.kinds()) + " (slow as "
                + SLOW_EXAMPLE + ")", node.describe()));
    }

    private static ToolFault.Kind kind(NodeReader r, String name, Object at, String path, Target target)
            throws ConfigException {
        ToolFault.Kind kind = ToolFault.Kind.of(name);
        if (kind == null) {
            String detail = target.session()
                    ? ConfigMessages.unknownMcpFault(name, DidYouMean.suggest(name, target.kinds()), target.kinds())
                    : ConfigMessages.unknownToolFault(name, DidYouMean.suggest(name, target.kinds()), target.kinds());
            throw error(r, at, path, detail);
        }
        if (kind.mcpOnly() && !target.mcp()) {
            throw error(r, at, path, ConfigMessages.mcpOnlyFault(name, target.tool().name(), target.kinds()));
        }
        if (target.session() && !kind.sessionLevel()) {
            throw error(r, at, path, ConfigMessages.toolOnlyFault(name, target.server(), target.kinds()));
        }
        return kind;
    }

    private static ConfigException error(NodeReader r, Object at, String path, String detail) {
        return at instanceof YamlNode.Entry e ? r.error(e, path, detail) : r.error((YamlNode) at, path, detail);
    }

    private static ToolFault slow(NodeReader r, YamlNode.Mapping m, YamlNode.Entry entry, String path, String kindPath,
            Target target) throws ConfigException {
        Duration delay = r.duration(entry.value(), kindPath);
        if (delay.isNegative()) {
            throw r.error(entry.value(), kindPath, ConfigMessages.expected("how late the tool answers, such as 5s",
                    entry.value().describe()));
        }
        if (m.entries().size() == 1) {
            return ToolFault.slow(delay);
        }
        YamlNode.Entry other = m.entries().get(0) == entry ? m.entries().get(1) : m.entries().get(0);
        String otherPath = NodeReader.child(path, other.key());
        if (!other.key().equals("progress")) {
            throw r.error(other, otherPath, ConfigMessages.slowSettingsKeys(other.key()));
        }
        if (!target.mcp()) {
            throw r.error(other, otherPath, ConfigMessages.mcpOnlyFault("{slow: ..., progress: ...}",
                    target.tool().name(), target.kinds()));
        }
        return ToolFault.slow(delay, r.integer(other.value(), otherPath, 0));
    }

    /** A JSON-RPC error code: an integer, negative as the reserved ones are. */
    private static long code(NodeReader r, YamlNode node, String path) throws ConfigException {
        String what = "a JSON-RPC error code, such as -32602";
        if (!(node instanceof YamlNode.Scalar s) || s.type() != YamlNode.ScalarType.INTEGER) {
            throw r.wrongType(node, path, what, null);
        }
        try {
            return Integer.parseInt(s.text());
        } catch (NumberFormatException e) {
            throw r.error(node, path, ConfigMessages.expected(what + " that fits in 32 bits", node.describe()));
        }
    }

    private static void invalidResult(NodeReader r, YamlNode node, String path, ToolDeclaration tool)
            throws ConfigException {
        if (tool.outputSchema() == null && tool.mcp()) {
            return; // the outputSchema of the tool in the server's recorded tools/list, checked when the run meets it
        }
        if (tool.outputSchema() == null) {
            throw r.error(node, path, ConfigMessages.invalidResultWithoutSchema(tool.name()));
        }
        if (BrokenResult.of(tool.outputSchema()) == null) {
            throw r.error(node, path, ConfigMessages.unbreakableSchema(tool.name()));
        }
    }

}
