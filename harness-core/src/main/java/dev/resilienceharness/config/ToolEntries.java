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

    static final List<String> KEYS = List.of("side_effects", "replay", "output_schema", "idempotency_key", "timeout");
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
                + " output_schema, idempotency_key, timeout), or {} for a read-only tool", KEYS);
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
        return new ToolDeclaration(e.key(), sideEffects, replay, schema, key, timeout, e.line());
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
                list.add(fault(r, items.get(i), NodeReader.index(toolPath, i), tool));
            }
            faults.put(e.key(), list);
        }
        return faults;
    }

    private static ToolFault fault(NodeReader r, YamlNode node, String path, ToolDeclaration tool)
            throws ConfigException {
        if (node instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING) {
            ToolFault.Kind kind = ToolFault.Kind.of(s.text());
            if (kind == null) {
                throw r.error(s, path, unknown(s.text()));
            }
            if (kind == ToolFault.Kind.SLOW) {
                throw r.error(s, path, ConfigMessages.faultNeedsSettings("slow", SLOW_EXAMPLE));
            }
            if (kind == ToolFault.Kind.INVALID_RESULT) {
                invalidResult(r, s, path, tool);
            }
            return ToolFault.of(kind);
        }
        if (node instanceof YamlNode.Mapping m) {
            if (m.entries().size() != 1) {
                throw r.error(node, path, ConfigMessages.toolFaultMappingSize(m.entries().size()));
            }
            YamlNode.Entry entry = m.entries().get(0);
            String kindPath = NodeReader.child(path, entry.key());
            ToolFault.Kind kind = ToolFault.Kind.of(entry.key());
            if (kind == null) {
                throw r.error(entry, kindPath, unknown(entry.key()));
            }
            if (kind != ToolFault.Kind.SLOW) {
                throw r.error(entry, kindPath, ConfigMessages.faultTakesNoSettings(entry.key()));
            }
            Duration delay = r.duration(entry.value(), kindPath);
            if (delay.isNegative()) {
                throw r.error(entry.value(), kindPath, ConfigMessages.expected("how late the tool answers, such as 5s",
                        entry.value().describe()));
            }
            return ToolFault.slow(delay);
        }
        throw r.error(node, path, ConfigMessages.expected("a tool fault: one of "
                + String.join(", ", ToolFault.Kind.ids()) + " (slow as " + SLOW_EXAMPLE + ")", node.describe()));
    }

    private static void invalidResult(NodeReader r, YamlNode node, String path, ToolDeclaration tool)
            throws ConfigException {
        if (tool.outputSchema() == null) {
            throw r.error(node, path, ConfigMessages.invalidResultWithoutSchema(tool.name()));
        }
        if (BrokenResult.of(tool.outputSchema()) == null) {
            throw r.error(node, path, ConfigMessages.unbreakableSchema(tool.name()));
        }
    }

    private static String unknown(String name) {
        return ConfigMessages.unknownToolFault(name, DidYouMean.suggest(name, ToolFault.Kind.ids()),
                ToolFault.Kind.ids());
    }
}
