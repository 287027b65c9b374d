package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.tool.ToolFault;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A minimal fault plan that breaks an invariant, ready to paste into {@code resilience.yaml}.
 *
 * @param name       the scenario name it is printed under, such as {@code explore-plain-budget-1}
 * @param invariant  the invariant it breaks
 * @param plan       the shrunk plan
 * @param violations what the plan causes under that invariant, as the checks report it for {@code name}
 * @param yaml       the scenario block, as {@link ScenarioYaml} prints it
 * @param foundIn    the phase of the plan space that found the plan before it was shrunk
 * @param foundAt    the number of that plan in the search, from 1
 * @param toolFaults the shrunk plan's {@code tool_faults:}, by tool; empty when it faults no tool
 */
@API(status = INTERNAL, since = "0.1.0")
public record Counterexample(String name, Invariant invariant, List<Fault> plan, List<Violation> violations,
        String yaml, PlanSpace.Phase foundIn, long foundAt, Map<String, List<ToolFault>> toolFaults) {

    public Counterexample {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(invariant, "invariant");
        plan = List.copyOf(plan);
        violations = List.copyOf(violations);
        Objects.requireNonNull(yaml, "yaml");
        Objects.requireNonNull(foundIn, "foundIn");
        Map<String, List<ToolFault>> copied = new LinkedHashMap<>();
        toolFaults.forEach((tool, list) -> copied.put(tool, List.copyOf(list)));
        toolFaults = Collections.unmodifiableMap(copied);
    }

    /** A counterexample that faults no tool. */
    public Counterexample(String name, Invariant invariant, List<Fault> plan, List<Violation> violations,
            String yaml, PlanSpace.Phase foundIn, long foundAt) {
        this(name, invariant, plan, violations, yaml, foundIn, foundAt, Map.of());
    }
}
