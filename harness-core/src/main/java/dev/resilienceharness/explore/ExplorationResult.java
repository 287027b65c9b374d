package dev.resilienceharness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Scenario;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What exploring one scenario's fault plans came to.
 *
 * @param scenario        the scenario whose ops and policy were explored
 * @param plans           how many plans were run (shrinking not counted)
 * @param counterexamples the distinct minimal counterexamples, in the order found
 * @param ended           why the search stopped
 */
@API(status = INTERNAL, since = "0.1.0")
public record ExplorationResult(Scenario scenario, long plans, List<Counterexample> counterexamples, Ended ended) {

    /** Why a search stopped. */
    public enum Ended {
        /** The plan budget was spent: the result is the same for the same seed. */
        PLAN_BUDGET,
        /** The time limit was reached first: how far the search got depends on the machine. */
        TIME_LIMIT,
        /** As many counterexamples as asked for were found. */
        COUNTEREXAMPLES
    }

    public ExplorationResult {
        Objects.requireNonNull(scenario, "scenario");
        counterexamples = List.copyOf(counterexamples);
        Objects.requireNonNull(ended, "ended");
    }
}
