package dev.resilienceharness.loop;

import dev.resilienceharness.clock.Sleeper;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.transport.Transport;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/** Everything a loop gets for one run: ops, transport, policy, a virtual sleeper and clock, and its journal. */
public final class LoopRun {

    private final List<String> ops;
    private final Function<String, ObjectNode> requests;
    private final Function<String, ObjectNode> templates;
    private final Transport transport;
    private final Policy policy;
    private final VirtualClock clock;
    private final Journal journal;

    /** @param requests gives a fresh copy of the request for an op on every call */
    public LoopRun(List<String> ops, Function<String, ObjectNode> requests, Transport transport, Policy policy,
            VirtualClock clock, Journal journal) {
        this(ops, requests, requests, transport, policy, clock, journal);
    }

    private LoopRun(List<String> ops, Function<String, ObjectNode> requests, Function<String, ObjectNode> templates,
            Transport transport, Policy policy, VirtualClock clock, Journal journal) {
        this.ops = List.copyOf(ops);
        this.requests = Objects.requireNonNull(requests, "requests");
        this.templates = Objects.requireNonNull(templates, "templates");
        this.transport = Objects.requireNonNull(transport, "transport");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.journal = Objects.requireNonNull(journal, "journal");
    }

    /**
     * A run whose requests come from templates that must never change, one node per op. {@link #request} hands a
     * loop a fresh copy of the op's template; the built-in loop, which changes no request, sends the template itself,
     * which spares a copy per op and lets the harness's transport know the request by identity.
     */
    public static LoopRun ofTemplates(List<String> ops, Function<String, ObjectNode> templates, Transport transport,
            Policy policy, VirtualClock clock, Journal journal) {
        return new LoopRun(ops, op -> templates.apply(op).deepCopy(), templates, transport, policy, clock, journal);
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

    /** Outcomes of ops finished before a restart; append each finished op's outcome. */
    public Journal journal() {
        return journal;
    }
}
