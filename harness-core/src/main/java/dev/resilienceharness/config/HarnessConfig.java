package dev.resilienceharness.config;

import static org.apiguardian.api.API.Status.MAINTAINED;

import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.RepairRequest;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A loaded {@code resilience.yaml} (docs configuration.md).
 *
 * @param file          the yaml file it was read from
 * @param version       the format version (1)
 * @param cassettes     the cassette folder, resolved against the yaml's folder
 * @param volatilePaths dotted paths into a cassette removed before fingerprinting, comparing and committing
 * @param policy        the top-level degradation policy
 * @param loop          {@code builtin} or the class name of the team's own loop
 * @param requests      the request sent for an op, where one is declared
 * @param scenarios     the scenarios, each with its effective policy
 * @param budget        explicit caps checked on top of the policy's own bound
 * @param redaction     what the secret scanner accepts
 * @param provider      where the record goal sends requests, or {@code null}
 * @param sources       where in the yaml each op's request comes from: its {@code requests} entry, or where a
 *                      scenario first names an op without one
 * @param drift         the {@code drift:} block: what the drift goal ignores and tolerates, and the cassettes' max age
 * @param tools         the {@code tools:} block, by the name the model sees (docs tools.md); empty when none
 * @param mcpServers    the {@code mcp_servers:} block, by server name in the order written (docs mcp.md); empty when
 *                      none
 */
@API(status = MAINTAINED, since = "0.1.0")
public record HarnessConfig(
        Path file,
        int version,
        Path cassettes,
        List<String> volatilePaths,
        Policy policy,
        String loop,
        Map<String, ObjectNode> requests,
        List<Scenario> scenarios,
        Budget budget,
        Redaction redaction,
        Provider provider,
        Map<String, Source> sources,
        DriftSettings drift,
        Map<String, dev.resilienceharness.tool.ToolDeclaration> tools,
        Map<String, dev.resilienceharness.mcp.McpServer> mcpServers) {

    /** The value of {@code loop:} that selects the built-in loop. */
    public static final String BUILTIN_LOOP = "builtin";

    public HarnessConfig {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(cassettes, "cassettes");
        volatilePaths = List.copyOf(volatilePaths);
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(loop, "loop");
        requests = Map.copyOf(requests);
        scenarios = List.copyOf(scenarios);
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(redaction, "redaction");
        sources = Map.copyOf(sources);
        drift = drift == null ? DriftSettings.DEFAULTS : drift;
        tools = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tools));
        mcpServers = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(mcpServers));
    }

    /** A config without an {@code mcp_servers:} block. */
    public HarnessConfig(Path file, int version, Path cassettes, List<String> volatilePaths, Policy policy, String loop,
            Map<String, ObjectNode> requests, List<Scenario> scenarios, Budget budget, Redaction redaction,
            Provider provider, Map<String, Source> sources, DriftSettings drift,
            Map<String, dev.resilienceharness.tool.ToolDeclaration> tools) {
        this(file, version, cassettes, volatilePaths, policy, loop, requests, scenarios, budget, redaction, provider,
                sources, drift, tools, Map.of());
    }

    /** A config without a {@code tools:} block. */
    public HarnessConfig(Path file, int version, Path cassettes, List<String> volatilePaths, Policy policy, String loop,
            Map<String, ObjectNode> requests, List<Scenario> scenarios, Budget budget, Redaction redaction,
            Provider provider, Map<String, Source> sources, DriftSettings drift) {
        this(file, version, cassettes, volatilePaths, policy, loop, requests, scenarios, budget, redaction, provider,
                sources, drift, Map.of());
    }

    /** The declaration of {@code tool}, or how an undeclared tool is treated. */
    public dev.resilienceharness.tool.ToolDeclaration tool(String tool) {
        dev.resilienceharness.tool.ToolDeclaration declared = tools.get(tool);
        return declared != null ? declared : dev.resilienceharness.tool.ToolDeclaration.undeclared(tool);
    }

    /** A config without a {@code drift:} block. */
    public HarnessConfig(Path file, int version, Path cassettes, List<String> volatilePaths, Policy policy, String loop,
            Map<String, ObjectNode> requests, List<Scenario> scenarios, Budget budget, Redaction redaction,
            Provider provider, Map<String, Source> sources) {
        this(file, version, cassettes, volatilePaths, policy, loop, requests, scenarios, budget, redaction, provider,
                sources, DriftSettings.DEFAULTS);
    }

    /**
     * A place in the yaml, or in the file its {@code requests_from} names.
     *
     * @param file   the file
     * @param line   1-based
     * @param column 1-based
     * @param key    the dotted key path there, such as {@code requests.plan} or {@code scenarios[0].ops[1]}
     */
    public record Source(Path file, int line, int column, String key) {
    }

    /** Whether the config was read from more files than its own ({@code requests_from}). */
    public boolean readsOtherFiles() {
        return sources.values().stream().anyMatch(s -> !s.file().equals(file));
    }

    /**
     * Where a problem with {@code op}'s request is reported: {@code file:line:column: requests.plan: } when the
     * request is declared, else at the scenario op that first sends it; just {@code file: } for an op the yaml
     * does not know.
     */
    public String where(String op) {
        Source source = sources.get(op);
        if (source == null) {
            return file + ": ";
        }
        return source.file() + ":" + source.line() + ":" + source.column() + ": " + source.key() + ": ";
    }

    /** The request sent for {@code op}: the declared one, else {@code {"op": "<op>"}}. Always a fresh copy. */
    public ObjectNode request(String op) {
        ObjectNode declared = requests.get(op);
        if (declared != null) {
            return declared.deepCopy();
        }
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("op", op);
        return node;
    }

    /**
     * The request {@code op} sends, as {@link #request} gives it but without the copy: the node is shared, and the
     * caller must never change it.
     */
    public ObjectNode sharedRequest(String op) {
        ObjectNode declared = requests.get(op);
        return declared != null ? declared : request(op);
    }

    /**
     * Whether {@code op}'s calls may come from the loop's SDK rather than from its declared request: a team's loop,
     * and no {@code requests:} entry for it. Such an op is answered from cassettes recorded through the SDK, found by
     * the fingerprints of the requests the SDK sends and labelled with the op.
     */
    public boolean sdkOp(String op) {
        return !usesBuiltinLoop() && !requests.containsKey(op);
    }

    /**
     * The requests repair calls for {@code op} send when a scenario running it declares
     * {@code schema.repair_instruction} and allows a repair: each may have a cassette of its own
     * ({@link RepairRequest}). In the order the scenarios name them, without repeats.
     */
    public Set<ObjectNode> repairRequests(String op) {
        return repairRequests().getOrDefault(op, Set.of());
    }

    /**
     * {@link #repairRequests(String)} of every op that has any, in one pass over the scenarios (asking op by op
     * walks every scenario for each op), by op in the order the scenarios first name them.
     */
    public Map<String, Set<ObjectNode>> repairRequests() {
        Map<String, Set<ObjectNode>> found = new LinkedHashMap<>();
        for (Scenario s : scenarios) {
            String instruction = s.policy().schema().repairInstruction();
            if (instruction == null || s.policy().schema().repairAttempts() <= 0) {
                continue;
            }
            for (String op : s.ops()) {
                found.computeIfAbsent(op, o -> new LinkedHashSet<>())
                        .add(RepairRequest.withInstruction(sharedRequest(op), instruction));
            }
        }
        return found;
    }

    /** This config with {@code loop:} replaced by {@code newLoop} (see {@link ConfigLoader#withLoop}). */
    HarnessConfig withLoop(String newLoop) {
        return new HarnessConfig(file, version, cassettes, volatilePaths, policy, newLoop, requests, scenarios, budget,
                redaction, provider, sources, drift, tools, mcpServers);
    }

    /** This config with only {@code kept} of its scenarios. */
    public HarnessConfig withScenarios(List<Scenario> kept) {
        return new HarnessConfig(file, version, cassettes, volatilePaths, policy, loop, requests, kept, budget,
                redaction, provider, sources, drift, tools, mcpServers);
    }

    /** Whether the run has tools to judge: a {@code tools:} or an {@code mcp_servers:} block. */
    public boolean declaresTools() {
        return !tools.isEmpty() || !mcpServers.isEmpty();
    }

    /** Whether the built-in loop runs the scenarios. */
    public boolean usesBuiltinLoop() {
        return BUILTIN_LOOP.equals(loop);
    }
}
