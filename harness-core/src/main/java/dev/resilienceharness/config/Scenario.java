package dev.resilienceharness.config;

import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.policy.Policy;
import java.util.List;
import java.util.Objects;

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
 */
public record Scenario(String name, List<String> ops, List<Fault> faults, Expectations expect, Policy policy,
        int line, boolean recordedLatency) {

    /** A scenario whose calls answer with their recorded timing. */
    public Scenario(String name, List<String> ops, List<Fault> faults, Expectations expect, Policy policy, int line) {
        this(name, ops, faults, expect, policy, line, false);
    }

    public Scenario {
        Objects.requireNonNull(name, "name");
        ops = List.copyOf(ops);
        faults = List.copyOf(faults);
        Objects.requireNonNull(expect, "expect");
        Objects.requireNonNull(policy, "policy");
    }

    /** This scenario with another fault plan (the explorer builds its candidates this way). */
    public Scenario withFaults(List<Fault> newFaults) {
        return new Scenario(name, ops, newFaults, expect, policy, line, recordedLatency);
    }
}
