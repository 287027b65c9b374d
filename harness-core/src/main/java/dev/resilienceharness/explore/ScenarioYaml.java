package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Durations;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.tool.ToolFault;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Prints a counterexample as a scenario block to paste under {@code scenarios:} in {@code resilience.yaml}: a
 * comment line per violation, then the scenario with its ops, its faults, tool faults and MCP faults in flow style,
 * and the scenario's changes to the top-level policy when it had any. It reads back with {@code ConfigLoader} as the same scenario.
 *
 * <pre>
 *   # explore-plan-budget-1 [budget] op 'plan': 2 calls for the op; ...
 *   - name: explore-plan-budget-1
 *     ops: [plan]
 *     faults: [none, {quota: {retry_after: "2"}}]
 *     tool_faults: {refund: [timeout_after_commit]}
 *     mcp_faults: {billing: [none, {protocol_error: -32602}]}
 *     policy: {max_attempts: 2}
 * </pre>
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ScenarioYaml {

    /** Text that reads back as itself when written plain: no quoting needed. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");
    /** Plain words YAML would read as something other than text. */
    private static final Set<String> RESERVED = Set.of("null", "Null", "NULL", "true", "True", "TRUE", "false",
            "False", "FALSE", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "Y",
            "n", "N");

    private ScenarioYaml() {
    }

    /**
     * The scenario block for {@code plan} run on {@code scenario}'s ops, named {@code name}.
     *
     * @param topLevel   the config's top-level policy: the block repeats only where the scenario's differs
     * @param violations what the plan causes, one comment line each
     */
    public static String block(String name, Scenario scenario, List<Fault> plan, Policy topLevel,
            List<Violation> violations) {
        StringBuilder sb = new StringBuilder();
        for (Violation v : violations) {
            sb.append("  # ").append(v.line().replaceAll("\\s*[\\r\\n]+\\s*", " ")).append('\n');
        }
        sb.append("  - name: ").append(scalar(name)).append('\n');
        StringJoiner ops = new StringJoiner(", ", "[", "]");
        scenario.ops().forEach(op -> ops.add(scalar(op)));
        sb.append("    ops: ").append(ops).append('\n');
        sb.append("    faults: ").append(faults(plan)).append('\n');
        if (!scenario.toolFaults().isEmpty()) {
            sb.append("    tool_faults: ").append(toolFaults(scenario.toolFaults())).append('\n');
        }
        if (!scenario.mcpFaults().isEmpty()) {
            sb.append("    mcp_faults: ").append(toolFaults(scenario.mcpFaults())).append('\n');
        }
        if (scenario.recordedLatency()) {
            sb.append("    latency: recorded\n");
        }
        String policy = policyChanges(scenario.policy(), topLevel);
        if (policy != null) {
            sb.append("    policy: ").append(policy).append('\n');
        }
        return sb.toString();
    }

    /** A fault list in flow style: {@code [timeout, {quota: {retry_after: "2"}}, crash]}. */
    public static String faults(List<Fault> plan) {
        StringJoiner list = new StringJoiner(", ", "[", "]");
        plan.forEach(f -> list.add(fault(f)));
        return list.toString();
    }

    /**
     * Tool faults in flow style: {@code {refund: [none, timeout_after_commit], lookup: [{slow: 30s}]}}; by MCP server,
     * the same is a scenario's {@code mcp_faults:}.
     */
    public static String toolFaults(Map<String, List<ToolFault>> toolFaults) {
        StringJoiner tools = new StringJoiner(", ", "{", "}");
        toolFaults.forEach((tool, list) -> {
            StringJoiner entries = new StringJoiner(", ", "[", "]");
            list.forEach(f -> entries.add(toolFault(f)));
            tools.add(scalar(tool) + ": " + entries);
        });
        return tools.toString();
    }

    /**
     * One tool or MCP fault as the yaml writes it, with every setting that reads back other than the kind's default:
     * {@code {slow: 5s, progress: 2}}, {@code {protocol_error: -32602}}, {@code {rate_limited: 3s}}.
     */
    static String toolFault(ToolFault f) {
        return switch (f.kind()) {
            case SLOW -> "{slow: " + Durations.format(f.delay())
                    + (f.progress() > 0 ? ", progress: " + f.progress() : "") + "}";
            case PROTOCOL_ERROR -> f.equals(ToolFault.of(f.kind())) ? f.id() : "{protocol_error: " + f.code() + "}";
            case RATE_LIMITED -> f.equals(ToolFault.of(f.kind())) ? f.id()
                    : "{rate_limited: " + Durations.format(f.delay()) + "}";
            default -> f.id();
        };
    }

    /** One fault as {@code resilience.yaml} writes it; {@code retry_after} always quoted, so it stays text. */
    static String fault(Fault f) {
        Object yaml = f.toYaml();
        if (yaml instanceof String bare) {
            return bare;
        }
        StringJoiner outer = new StringJoiner(", ", "{", "}");
        for (Map.Entry<?, ?> kind : ((Map<?, ?>) yaml).entrySet()) {
            if (kind.getValue() instanceof String word) {
                outer.add(kind.getKey() + ": " + word); // {latency: recorded}
                continue;
            }
            StringJoiner settings = new StringJoiner(", ", "{", "}");
            for (Map.Entry<?, ?> setting : ((Map<?, ?>) kind.getValue()).entrySet()) {
                Object value = setting.getValue();
                settings.add(setting.getKey() + ": " + (value instanceof String s ? quoted(s) : value));
            }
            outer.add(kind.getKey() + ": " + settings);
        }
        return outer.toString();
    }

    /**
     * The settings where {@code scenario} differs from {@code top}, as a flow mapping with the keys of a scenario's
     * {@code policy:}, or {@code null} when they agree.
     */
    static String policyChanges(Policy scenario, Policy top) {
        List<String> keys = new ArrayList<>();
        if (scenario.maxAttempts() != top.maxAttempts()) {
            keys.add("max_attempts: " + scenario.maxAttempts());
        }
        if (!scenario.baseDelay().equals(top.baseDelay())) {
            keys.add("base_delay: " + Durations.format(scenario.baseDelay()));
        }
        if (!scenario.maxDelay().equals(top.maxDelay())) {
            keys.add("max_delay: " + Durations.format(scenario.maxDelay()));
        }
        if (!scenario.maxTotalWait().equals(top.maxTotalWait())) {
            keys.add("max_total_wait: " + Durations.format(scenario.maxTotalWait()));
        }
        List<String> quota = new ArrayList<>();
        if (scenario.quota().withRetryAfter() != top.quota().withRetryAfter()) {
            quota.add("with_retry_after: " + scenario.quota().withRetryAfter().yamlName());
        }
        if (!scenario.quota().maxRetryAfter().equals(top.quota().maxRetryAfter())) {
            quota.add("max_retry_after: " + Durations.format(scenario.quota().maxRetryAfter()));
        }
        if (!quota.isEmpty()) {
            keys.add("quota: {" + String.join(", ", quota) + "}");
        }
        List<String> schema = new ArrayList<>();
        if (scenario.schema().repairAttempts() != top.schema().repairAttempts()) {
            schema.add("repair_attempts: " + scenario.schema().repairAttempts());
        }
        String instruction = scenario.schema().repairInstruction();
        if (instruction != null && !instruction.equals(top.schema().repairInstruction())) {
            schema.add("repair_instruction: " + quoted(instruction));
        }
        if (!schema.isEmpty()) {
            keys.add("schema: {" + String.join(", ", schema) + "}");
        }
        if (!scenario.slowFirstToken().threshold().equals(top.slowFirstToken().threshold())) {
            keys.add("slow_first_token: {threshold: " + Durations.format(scenario.slowFirstToken().threshold()) + "}");
        }
        if (scenario.concurrency() != top.concurrency()) {
            keys.add("concurrency: " + scenario.concurrency());
        }
        if (scenario.jitter() != top.jitter()) {
            keys.add("jitter: " + scenario.jitter().yamlName());
        }
        if (scenario.maxRounds() != top.maxRounds()) {
            keys.add("max_rounds: " + scenario.maxRounds());
        }
        return keys.isEmpty() ? null : "{" + String.join(", ", keys) + "}";
    }

    /** {@code text} plain when it reads back as the same text, else double-quoted. */
    static String scalar(String text) {
        return PLAIN.matcher(text).matches() && !RESERVED.contains(text) ? text : quoted(text);
    }

    /** {@code text} as a YAML double-quoted scalar (JSON escapes, which YAML shares). */
    static String quoted(String text) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c >= 0x7f && c <= 0x9f) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
