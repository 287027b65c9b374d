package dev.resilienceharness.scenario;

import static org.apiguardian.api.API.Status.MAINTAINED;

import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.Violation;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A checked scenario: the first run's trace, the call budget the reports show, and every violation found.
 *
 * @param scenario   the scenario
 * @param trace      the first run's trace
 * @param callBudget the sum of the per-op call bounds of docs invariants/budget.md over the ops called
 * @param violations every violation, in invariant order
 * @param spend      tokens, cost and refused calls against the budget, or {@code null} when the scenario counts none
 */
@API(status = MAINTAINED, since = "0.1.0")
public record ScenarioResult(Scenario scenario, RunTrace trace, int callBudget, List<Violation> violations,
        dev.resilienceharness.invariant.TokenSpend spend) {

    public ScenarioResult {
        violations = List.copyOf(violations);
    }

    /** A result whose tokens are counted only when the scenario has provider limits. */
    public ScenarioResult(Scenario scenario, RunTrace trace, int callBudget, List<Violation> violations) {
        this(scenario, trace, callBudget, violations, dev.resilienceharness.invariant.TokenSpend.of(trace,
                dev.resilienceharness.config.Budget.NONE));
    }

    public int calls() {
        return trace.calls().size();
    }

    public double waitBoundMs() {
        return scenario.policy().maxTotalWait().toNanos() / 1_000_000.0;
    }
}
