package dev.resilienceharness.loop;

import static org.apiguardian.api.API.Status.STABLE;

import dev.resilienceharness.clock.Sleeper;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.RepairRequest;
import dev.resilienceharness.transport.Transport;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/** Everything a loop gets for one run: ops, transport, policy, a virtual sleeper and clock, and its journal. */
@API(status = STABLE, since = "0.1.0")
public final class LoopRun {

    private final List<String> ops;
    private final Function<String, ObjectNode> requests;
    private final Function<String, ObjectNode> templates;
    private final RepairTemplates repairs;
    private final Transport transport;
    private final Policy policy;
    private final VirtualClock clock;
    private final Journal journal;
    private final HttpEndpoint http;

    /** @param requests gives a fresh copy of the request for an op on every call */
    public LoopRun(List<String> ops, Function<String, ObjectNode> requests, Transport transport, Policy policy,
            VirtualClock clock, Journal journal) {
        this(ops, requests, requests, null, transport, policy, clock, journal, null);
    }

    private LoopRun(List<String> ops, Function<String, ObjectNode> requests, Function<String, ObjectNode> templates,
            RepairTemplates repairs, Transport transport, Policy policy, VirtualClock clock, Journal journal,
            HttpEndpoint http) {
        this.ops = List.copyOf(ops);
        this.requests = Objects.requireNonNull(requests, "requests");
        this.templates = Objects.requireNonNull(templates, "templates");
        this.repairs = repairs;
        this.transport = Objects.requireNonNull(transport, "transport");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.journal = Objects.requireNonNull(journal, "journal");
        this.http = http;
    }

    /**
     * A run whose requests come from templates that must never change, one node per op. {@link #request} hands a
     * loop a fresh copy of the op's template; the built-in loop, which changes no request, sends the template itself,
     * which spares a copy per op and lets the harness's transport know the request by identity.
     */
    public static LoopRun ofTemplates(List<String> ops, Function<String, ObjectNode> templates, Transport transport,
            Policy policy, VirtualClock clock, Journal journal) {
        return ofTemplates(ops, templates, transport, policy, clock, journal, null);
    }

    /**
     * As {@link #ofTemplates(List, Function, Transport, Policy, VirtualClock, Journal)}, with the run's provider also
     * reachable as HTTP for SDK adapters ({@code null}: none).
     */
    public static LoopRun ofTemplates(List<String> ops, Function<String, ObjectNode> templates, Transport transport,
            Policy policy, VirtualClock clock, Journal journal, HttpEndpoint http) {
        return ofTemplates(ops, templates, null, transport, policy, clock, journal, http);
    }

    /**
     * The payload of an op's {@code n}-th repair call ({@code RepairRequest.payload} of the op's template with
     * {@code instruction}), made once per op, repair and instruction and never changed, like the template.
     */
    @FunctionalInterface
    public interface RepairTemplates {
        ObjectNode payload(String op, int n, String instruction);
    }

    /**
     * As {@link #ofTemplates(List, Function, Transport, Policy, VirtualClock, Journal, HttpEndpoint)}, with the
     * built-in loop's repair payloads made once as well ({@code repairs}; {@code null}: a fresh one per repair call).
     */
    public static LoopRun ofTemplates(List<String> ops, Function<String, ObjectNode> templates,
            RepairTemplates repairs, Transport transport, Policy policy, VirtualClock clock, Journal journal,
            HttpEndpoint http) {
        return new LoopRun(ops, op -> templates.apply(op).deepCopy(), templates, repairs, transport, policy, clock,
                journal, http);
    }

    /** The ops to run, in order. */
    public List<String> ops() {
        return ops;
    }

    /** A fresh copy of the request to send for {@code op}. */
    public ObjectNode request(String op) {
        return requests.apply(op).deepCopy();
    }

    /** The request for {@code op} to send unchanged: the template itself when the run has templates. */
    ObjectNode template(String op) {
        return templates.apply(op);
    }

    /** The payload of {@code op}'s {@code n}-th repair call, to send unchanged: made once when the run can. */
    ObjectNode repairTemplate(String op, int n, String instruction) {
        return repairs != null ? repairs.payload(op, n, instruction)
                : RepairRequest.payload(templates.apply(op), n, instruction);
    }

    public Transport transport() {
        return transport;
    }

    public Policy policy() {
        return policy;
    }

    /** Waits on the virtual clock. */
    public Sleeper sleeper() {
        return clock;
    }

    /** The virtual now (starts at 2026-01-01T00:00:00Z and moves only with waits). */
    public Instant now() {
        return clock.now();
    }

    /** All virtual waiting in this scenario run so far, across restarts. */
    public Duration waited() {
        return clock.totalWaited();
    }

    /**
     * The run's provider as HTTP, for an SDK adapter ({@code HarnessOpenAi.client(run)} and the like): the SDK's every
     * attempt goes through this run's cassettes and fault plan, and its sleeper and clock are this run's.
     *
     * @throws IllegalStateException when the run was made without one (only runs the harness makes have it)
     */
    public HttpEndpoint http() {
        if (http == null) {
            throw new IllegalStateException("this LoopRun was made without an HTTP endpoint; SDK adapters need a run"
                    + " that the harness made (Rehearsal, the plugin's goals or the JUnit engine)");
        }
        return http;
    }

    /**
     * Attributes every SDK call made until the scope is closed to {@code op}:
     * {@code try (var scope = run.op("plan")) { agent.plan(); }}. A run without an HTTP endpoint has nothing to
     * attribute, and its scopes do nothing.
     */
    public HttpEndpoint.Scope op(String op) {
        Objects.requireNonNull(op, "op");
        return http == null ? () -> { } : http.op(op);
    }

    /**
     * Executes a tool the model asked for (docs tools.md): {@code run.tool(ToolCall.of("refund", args), () ->
     * billing.refund(order))}. In a run the harness made, the execution meets the scenario's {@code tool_faults:},
     * is recorded for the {@code side_effects} invariant, the tool budget and the timeline, and is attributed to the
     * op of the current {@link #op} scope; a run made without an HTTP endpoint just runs {@code body}.
     *
     * @return the tool's result, as the text that goes back to the model
     * @throws Exception what {@code body} throws, or what an injected fault makes the caller see: a
     *                   {@link dev.resilienceharness.tool.ToolFailure} ({@code error}) or a
     *                   {@link java.net.SocketTimeoutException} ({@code timeout}, {@code timeout_after_commit})
     */
    public String tool(dev.resilienceharness.tool.ToolCall call, dev.resilienceharness.tool.ToolBody body)
            throws Exception {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(body, "body");
        return http == null ? body.run() : http.tool(call, body);
    }

    /** {@link #tool(dev.resilienceharness.tool.ToolCall, dev.resilienceharness.tool.ToolBody)} of a call with no key. */
    public String tool(String name, String arguments, dev.resilienceharness.tool.ToolBody body) throws Exception {
        return tool(dev.resilienceharness.tool.ToolCall.of(name, arguments), body);
    }

    /**
     * The MCP server {@code server} for this run (docs mcp.md), for an MCP client adapter: its messages are answered
     * from the server's MCP cassettes and meet the scenario's MCP faults on the virtual clock.
     *
     * @param layer the client, as the timeline and the {@code side_effects} verdicts name it
     * @throws IllegalStateException    when the run was made without an HTTP endpoint (only runs the harness makes
     *                                  have one)
     * @throws IllegalArgumentException when the configuration declares no MCP server of that name
     */
    public dev.resilienceharness.mcp.McpEndpoint mcp(String server, String layer) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(layer, "layer");
        return http().mcp(server, layer);
    }

    /** The virtual clock as a {@link java.time.Clock}, for code that measures time (a first token, a deadline). */
    public java.time.Clock clock() {
        return clock.asClock();
    }

    /** Outcomes of ops finished before a restart; append each finished op's outcome. */
    public Journal journal() {
        return journal;
    }
}
