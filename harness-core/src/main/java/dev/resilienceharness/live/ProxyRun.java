package dev.resilienceharness.live;

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
final class ProxyRun {

    /** The invariants a proxy-driven run is checked for. */
    static final Set<Invariant> CHECKED = Set.of(Invariant.BUDGET, Invariant.BOUNDED_WAIT, Invariant.CASSETTES);

    private final Scenario scenario;
    private final long startNanos;
    private final List<CallRecord> calls = new ArrayList<>();
    private final List<VirtualClock.Wait> waits = new ArrayList<>();
    private final List<Violation> misses = new ArrayList<>();
    private int nextFault;
    private long lastFailureEnd = -1;

    /**
     * @param scenario   whose plan and policy apply; its ops name the calls
     * @param startNanos {@link System#nanoTime} when the run began
     */
    ProxyRun(Scenario scenario, long startNanos) {
        this.scenario = scenario;
        this.startNanos = startNanos;
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
        return CallRecord.Result.OK;
    }

    /** How many requests the run has seen. */
    synchronized int requests() {
        return calls.size() + misses.size();
    }

    /** The run checked for call budget and waiting (the client's outcomes are not known to the proxy). */
    synchronized ScenarioResult result(Budget budget) {
        Duration total = Duration.ZERO;
        for (VirtualClock.Wait w : waits) {
            total = total.plusNanos(w.nanos());
        }
        RunTrace trace = new RunTrace(scenario, List.of(), calls, waits, total, List.of(), null);
        List<Violation> violations = new ArrayList<>(new CallBudget(budget).check(trace));
        violations.addAll(new BoundedWaiting().check(trace));
        violations.addAll(misses);
        return new ScenarioResult(scenario, trace, CallBudget.scenarioBound(trace), violations);
    }
}
