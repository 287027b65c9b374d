package dev.resilienceharness.proxy;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.Budget;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.CrashFault;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.ServerErrorFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.http.FaultAnswer;
import dev.resilienceharness.invariant.BoundedWaiting;
import dev.resilienceharness.invariant.CallBudget;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.transport.RetryAfter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One scenario's run as the proxy saw it, from a start or reset to the next: the fault plan handed out one entry
 * per request, every request as a call of the run's trace, and the client's waiting, which is the time between a
 * failed answer going out and the next request arriving. {@link #result} checks the run's call budget and its
 * waiting with the engine's own invariants. Thread-safe.
 */
final class ProxyRun implements McpRoute.Served {

    /** The invariants a proxy-driven run is checked for. */
    static final Set<Invariant> CHECKED = Set.of(Invariant.BUDGET, Invariant.BOUNDED_WAIT, Invariant.CASSETTES);
    /** ... and with tools or MCP servers declared, whose executions the proxy sees. */
    static final Set<Invariant> CHECKED_WITH_TOOLS = Set.of(Invariant.BUDGET, Invariant.BOUNDED_WAIT,
            Invariant.CASSETTES, Invariant.SIDE_EFFECTS);

    /** The invariants the runs of a proxy over {@code config} are checked for. */
    static Set<Invariant> checked(dev.resilienceharness.config.HarnessConfig config) {
        return config.mcpServers().isEmpty() ? CHECKED : CHECKED_WITH_TOOLS;
    }

    private final Scenario scenario;
    private final long startNanos;
    private final dev.resilienceharness.config.HarnessConfig config;
    /** The run's MCP servers, on a virtual clock of their own; {@code null} when the yaml declares none. */
    private final dev.resilienceharness.scenario.ServedMcp mcp;
    private final List<CallRecord> calls = new ArrayList<>();
    private final List<VirtualClock.Wait> waits = new ArrayList<>();
    private final List<Violation> misses = new ArrayList<>();
    private int nextFault;
    private long lastFailureEnd = -1;
    /** The scenario's provider_limits, on the real clock since the run began; {@code null} without limits. */
    private final dev.resilienceharness.limits.Limiter limiter;

    /**
     * @param scenario   whose plan and policy apply; its ops name the calls
     * @param startNanos {@link System#nanoTime} when the run began
     */
    ProxyRun(Scenario scenario, long startNanos) {
        this(null, scenario, startNanos);
    }

    /**
     * @param config whose MCP servers the run serves ({@code null}: none)
     */
    ProxyRun(dev.resilienceharness.config.HarnessConfig config, Scenario scenario, long startNanos) {
        this.config = config;
        this.mcp = config == null || config.mcpServers().isEmpty() ? null
                : new dev.resilienceharness.scenario.ServedMcp(config, scenario);
        this.scenario = scenario;
        this.startNanos = startNanos;
        this.limiter = scenario.limits().limitsNothing() ? null
                : new dev.resilienceharness.limits.Limiter(scenario.limits());
    }

    /**
     * The limits' answer to a request that would be answered as recorded, at {@code arrived} in real time: {@code null}
     * when admitted (and counted). With a time factor the provider's clock runs {@code 1 / timeFactor} as fast as the
     * real one, and the delays a refusal states (Retry-After and the reset headers) are scaled back to real time.
     *
     * @param delay how long the answer takes to arrive, already scaled
     */
    synchronized dev.resilienceharness.limits.Refusal limit(long arrived, double timeFactor,
            dev.resilienceharness.limits.Tokens tokens, Duration delay) {
        if (limiter == null) {
            return null;
        }
        // A time factor of 0 makes the faults' delays vanish; the windows then run on the real clock.
        timeFactor = timeFactor > 0 ? timeFactor : 1.0;
        long at = Math.round((arrived - startNanos) / timeFactor);
        dev.resilienceharness.limits.Refusal refusal = limiter.admit(at, Math.round(delay.toNanos() / timeFactor),
                tokens);
        if (refusal == null || timeFactor == 1.0) {
            return refusal;
        }
        // Retry-After and the x-ratelimit-reset-* headers alike, back to real time.
        java.util.Map<String, String> headers = dev.resilienceharness.limits.RealTimeHeaders.scaled(refusal.headers(),
                timeFactor);
        return new dev.resilienceharness.limits.Refusal(refusal.kind(),
                refusal.retryAfter() == null ? null : headers.get("Retry-After"), headers, refusal.message());
    }

    /** The {@code x-ratelimit-*} headers an admitted answer at {@code arrived} carries; empty without limits. */
    synchronized java.util.Map<String, String> limitHeaders(long arrived, double timeFactor) {
        if (limiter == null) {
            return java.util.Map.of();
        }
        timeFactor = timeFactor > 0 ? timeFactor : 1.0;
        return dev.resilienceharness.limits.RealTimeHeaders.scaled(
                limiter.headers(Math.round((arrived - startNanos) / timeFactor)), timeFactor);
    }

    /** Notes a request the limits refused with {@code refusal}'s 429, at {@code arrived} in real time. */
    synchronized void refused(String op, Fault fault, dev.resilienceharness.limits.Refusal refusal, long arrived) {
        long at = arrived - startNanos;
        if (lastFailureEnd >= 0 && at > lastFailureEnd) {
            waits.add(new VirtualClock.Wait(lastFailureEnd, at - lastFailureEnd));
        }
        String limit = refusal.kind() == dev.resilienceharness.transport.QuotaExhausted.Kind.INSUFFICIENT_QUOTA
                ? CallRecord.INSUFFICIENT_QUOTA : CallRecord.RATE_LIMIT;
        calls.add(new CallRecord(calls.size(), op, 0, fault.kind(), CallRecord.Result.QUOTA, 429, refusal.retryAfter(),
                false, at, null, 0, null, 0, dev.resilienceharness.limits.Tokens.NONE, limit, null));
        lastFailureEnd = at;
    }

    /** Notes the tokens of the answered request just noted by {@link #call}. */
    synchronized void spent(dev.resilienceharness.limits.Tokens tokens) {
        int last = calls.size() - 1;
        if (last >= 0) {
            CallRecord c = calls.get(last);
            calls.set(last, new CallRecord(c.index(), c.op(), c.repair(), c.fault(), c.result(), c.status(),
                    c.retryAfter(), c.honourable(), c.atNanos(), c.firstTokenMs(), c.incarnation(), c.sdk(),
                    c.sdkRetry(), tokens, c.limit(), c.model()));
        }
    }

    Scenario scenario() {
        return scenario;
    }

    /** The plan's next entry, {@code none} once it has run out. */
    synchronized Fault nextFault() {
        int i = nextFault++;
        return i < scenario.faults().size() ? scenario.faults().get(i) : NoFault.INSTANCE;
    }

    /**
     * The fault a request meets and its place in the run, which seeds a {@code {latency: recorded}} draw: the plan's
     * next entry; once the plan has run out, or where it says {@code none}, {@code {latency: recorded}} under a
     * scenario-wide {@code latency: recorded}, else {@code none}.
     */
    synchronized Planned nextPlanned() {
        int call = nextFault;
        Fault fault = nextFault();
        return new Planned(fault instanceof NoFault && scenario.recordedLatency()
                ? dev.resilienceharness.fault.RecordedLatencyFault.INSTANCE : fault, call);
    }

    /**
     * A request's fault and place.
     *
     * @param fault what the request meets
     * @param call  how many requests of the run came before it
     */
    record Planned(Fault fault, int call) {
    }

    /**
     * Notes one request.
     *
     * @param op          the op its fingerprint belongs to, or a name made of the fingerprint
     * @param fault       the fault applied
     * @param answer      what the client was told (a 404 for a cassette miss)
     * @param missMessage the cassette miss the client was told about, else {@code null}
     * @param arrived     {@link System#nanoTime} when the request arrived
     */
    synchronized void call(String op, Fault fault, FaultAnswer answer, String missMessage, long arrived) {
        long at = arrived - startNanos;
        if (lastFailureEnd >= 0 && at > lastFailureEnd) {
            waits.add(new VirtualClock.Wait(lastFailureEnd, at - lastFailureEnd));
        }
        long end = at + answer.delay().toNanos();
        if (missMessage != null) {
            misses.add(new Violation(Invariant.CASSETTES, scenario.name(), op, null, null, missMessage,
                    "Record the request, or send the one the cassette holds"));
            lastFailureEnd = end;
            return;
        }
        CallRecord.Result result = result(fault);
        int status = fault instanceof ServerErrorFault s ? s.status() : 0;
        String retryAfter = fault instanceof QuotaFault q ? q.retryAfter() : null;
        boolean honourable = false;
        if (retryAfter != null) {
            honourable = RetryAfter.parse(retryAfter, Instant.EPOCH.plusNanos(at))
                    .map(d -> scenario.policy().mayHonour(d)).orElse(false);
        }
        Long firstTokenMs = result == CallRecord.Result.OK ? answer.delay().toMillis() : null;
        calls.add(new CallRecord(calls.size(), op, 0, fault.kind(), result, result == CallRecord.Result.QUOTA ? 429
                : status, retryAfter, honourable, at, firstTokenMs, 0));
        lastFailureEnd = result == CallRecord.Result.OK ? -1 : end;
    }

    private static CallRecord.Result result(Fault fault) {
        if (fault instanceof TimeoutFault || fault instanceof ServerErrorFault) {
            return CallRecord.Result.TRANSIENT;
        }
        if (fault instanceof QuotaFault) {
            return CallRecord.Result.QUOTA;
        }
        if (fault instanceof BadToolCallFault) {
            return CallRecord.Result.SCHEMA;
        }
        if (fault instanceof CrashFault) {
            return CallRecord.Result.CRASH;
        }
        if (fault instanceof dev.resilienceharness.fault.TruncatedToolCallFault) {
            return CallRecord.Result.SCHEMA;
        }
        if (fault instanceof dev.resilienceharness.fault.StreamFault) {
            return CallRecord.Result.TRANSIENT; // a cut, stalled, malformed or erroring stream
        }
        return CallRecord.Result.OK;
    }

    /** How many requests the run has seen, MCP messages included. */
    synchronized int requests() {
        return calls.size() + misses.size() + (mcp == null ? 0 : mcp.records().size());
    }

    @Override
    public dev.resilienceharness.mcp.McpEndpoint endpoint(String server) {
        if (mcp == null) {
            throw new IllegalArgumentException(ProxyMessages.noMcpServer(server, java.util.List.of()));
        }
        if (!config.mcpServers().containsKey(server)) {
            throw new IllegalArgumentException(ProxyMessages.noMcpServer(server, config.mcpServers().keySet()));
        }
        return mcp.endpoint(server);
    }

    @Override
    public Duration elapsed() {
        return mcp == null ? Duration.ZERO : mcp.elapsed();
    }

    @Override
    public synchronized void missed(String server, String message) {
        misses.add(new Violation(Invariant.CASSETTES, scenario.name(),
                dev.resilienceharness.scenario.ServedMcp.op(server), null, null, message,
                "Record the server's session with mvn resilience:record, or send the request it holds"));
    }

    @Override
    public String lastFault() {
        if (mcp == null) {
            return "-";
        }
        List<dev.resilienceharness.trace.McpRecord> records = mcp.records();
        return records.isEmpty() ? "-" : records.get(records.size() - 1).fault();
    }

    /** The run checked for call budget and waiting (the client's outcomes are not known to the proxy). */
    synchronized ScenarioResult result(Budget budget) {
        Duration total = Duration.ZERO;
        for (VirtualClock.Wait w : waits) {
            total = total.plusNanos(w.nanos());
        }
        RunTrace trace = new RunTrace(scenario, List.of(), calls, waits, total, List.of(), null, List.of(), List.of(),
                mcp == null ? List.of() : mcp.tools(), mcp == null ? List.of() : mcp.records());
        List<Violation> violations = new ArrayList<>(new CallBudget(budget).check(trace));
        if (mcp != null) {
            violations.addAll(new dev.resilienceharness.invariant.SideEffects(config.tools()).check(trace));
        }
        violations.addAll(new dev.resilienceharness.invariant.LimitRetries().check(trace));
        violations.addAll(new dev.resilienceharness.invariant.TokenBudget(budget).check(trace));
        violations.addAll(new BoundedWaiting().check(trace));
        violations.addAll(misses);
        return new ScenarioResult(scenario, trace, CallBudget.scenarioBound(trace), violations,
                dev.resilienceharness.invariant.TokenSpend.of(trace, budget));
    }
}
