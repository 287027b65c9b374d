package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.MAINTAINED;

import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.policy.Policy;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One scenario: ops run in order against a fault plan under a policy.
 *
 * @param name   unique within the file
 * @param ops    the ops, in order
 * @param faults consumed one entry per transport call; when it runs out, calls succeed
 * @param expect what the outcome list must show, or {@link Expectations#NONE}
 * @param policy the effective policy: the top-level one with this scenario's changes applied
 * @param line   the line of the scenario in its yaml file (1-based), or 0 when it was built in code
 * @param recordedLatency {@code latency: recorded}: every call the plan does not fault meets
 *               {@code {latency: recorded}}, its delay drawn from its cassette's timing samples
 * @param limits the effective {@code provider_limits}: the top-level block with this scenario's changes applied
 * @param toolFaults {@code tool_faults:}, by tool name: each list is consumed one entry per execution of that tool,
 *               then executions succeed (docs tools.md)
 * @param mcpFaults {@code mcp_faults:}, by MCP server name: each list is consumed one entry per request that server
 *               receives, then requests succeed (docs mcp.md)
 */
@API(status = MAINTAINED, since = "0.1.0")
public record Scenario(String name, List<String> ops, List<Fault> faults, Expectations expect, Policy policy,
        int line, boolean recordedLatency, ProviderLimits limits,
        java.util.Map<String, List<dev.resilienceharness.tool.ToolFault>> toolFaults,
        java.util.Map<String, List<dev.resilienceharness.tool.ToolFault>> mcpFaults) {

    /** A scenario without MCP session faults. */
    public Scenario(String name, List<String> ops, List<Fault> faults, Expectations expect, Policy policy, int line,
            boolean recordedLatency, ProviderLimits limits,
            java.util.Map<String, List<dev.resilienceharness.tool.ToolFault>> toolFaults) {
        this(name, ops, faults, expect, policy, line, recordedLatency, limits, toolFaults, java.util.Map.of());
    }

    /** A scenario without tool faults. */
    public Scenario(String name, List<String> ops, List<Fault> faults, Expectations expect, Policy policy, int line,
            boolean recordedLatency, ProviderLimits limits) {
        this(name, ops, faults, expect, policy, line, recordedLatency, limits, java.util.Map.of());
    }

    /** A scenario whose calls answer with their recorded timing, against provider limits. */
    public Scenario(String name, List<String> ops, List<Fault> faults, Expectations expect, Policy policy, int line,
            ProviderLimits limits) {
        this(name, ops, faults, expect, policy, line, false, limits);
    }

    /** A scenario against an endpoint without limits. */
    public Scenario(String name, List<String> ops, List<Fault> faults, Expectations expect, Policy policy, int line,
            boolean recordedLatency) {
        this(name, ops, faults, expect, policy, line, recordedLatency, ProviderLimits.NONE);
    }

    public Scenario {
        Objects.requireNonNull(name, "name");
        ops = List.copyOf(ops);
        faults = List.copyOf(faults);
        Objects.requireNonNull(expect, "expect");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(limits, "limits");
        java.util.Map<String, List<dev.resilienceharness.tool.ToolFault>> copied = new java.util.LinkedHashMap<>();
        toolFaults.forEach((tool, list) -> copied.put(tool, List.copyOf(list)));
        toolFaults = java.util.Collections.unmodifiableMap(copied);
        java.util.Map<String, List<dev.resilienceharness.tool.ToolFault>> session = new java.util.LinkedHashMap<>();
        mcpFaults.forEach((server, list) -> session.put(server, List.copyOf(list)));
        mcpFaults = java.util.Collections.unmodifiableMap(session);
    }

    /** A scenario whose calls answer with their recorded timing, against an endpoint without limits. */
    public Scenario(String name, List<String> ops, List<Fault> faults, Expectations expect, Policy policy, int line) {
        this(name, ops, faults, expect, policy, line, false, ProviderLimits.NONE);
    }

    /** This scenario with another fault plan (the explorer builds its candidates this way). */
    public Scenario withFaults(List<Fault> newFaults) {
        return new Scenario(name, ops, newFaults, expect, policy, line, recordedLatency, limits, toolFaults, mcpFaults);
    }

    /** This scenario against other provider limits (the explorer searches them this way). */
    public Scenario withLimits(ProviderLimits newLimits) {
        return new Scenario(name, ops, faults, expect, policy, line, recordedLatency, newLimits, toolFaults, mcpFaults);
    }

    /** This scenario with other tool faults (the explorer builds its candidates this way). */
    public Scenario withToolFaults(java.util.Map<String, List<dev.resilienceharness.tool.ToolFault>> newToolFaults) {
        return new Scenario(name, ops, faults, expect, policy, line, recordedLatency, limits, newToolFaults, mcpFaults);
    }

    /** The tool faults of {@code tool}, in order of its executions; empty when it has none. */
    public List<dev.resilienceharness.tool.ToolFault> toolFaults(String tool) {
        return toolFaults.getOrDefault(tool, List.of());
    }

    /** The session-level faults of the MCP server {@code server}, in order of its requests; empty when it has none. */
    public List<dev.resilienceharness.tool.ToolFault> mcpFaults(String server) {
        return mcpFaults.getOrDefault(server, List.of());
    }
}
