package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunFailure;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;

/** The goals that only run scenarios: {@code check-budget} and {@code check-determinism}. */
@API(status = INTERNAL, since = "0.1.0")
public final class ScenarioChecks {

    /** What {@code check-budget} checks: every invariant of one run. */
    public static final Set<Invariant> BUDGET = EnumSet.of(Invariant.BUDGET, Invariant.PARTIAL_WORK,
            Invariant.BOUNDED_WAIT, Invariant.EXPECTATIONS);

    /** What {@code check-determinism} checks. */
    public static final Set<Invariant> DETERMINISM = EnumSet.of(Invariant.DETERMINISM);

    private ScenarioChecks() {
    }

    /** Runs the scenarios (of the runner's shard) for {@code invariants} and delivers the verdict. */
    public static void check(ScenarioRunner runner, HarnessConfig config, Set<Invariant> invariants,
            boolean failOnViolation) throws RunError, RunFailure {
        List<Violation> violations = new ArrayList<>();
        run(runner, config, invariants).forEach(r -> violations.addAll(r.violations()));
        Verdict.deliver(runner.log(), runner.goal(), violations, failOnViolation, Verdict.REPORT_HINT);
    }

    /** Runs the scenarios for {@code invariants}; setup problems (missing cassette, unusable loop) fail the goal. */
    static List<ScenarioReport> run(ScenarioRunner runner, HarnessConfig config, Set<Invariant> invariants)
            throws RunError {
        if (config.scenarios().isEmpty()) {
            return runner.run(config, invariants, null, null, UnaryOperator.identity());
        }
        HarnessConfig mine = runner.shardOf(config);
        return mine.scenarios().isEmpty() ? List.of()
                : runner.run(mine, invariants, null, null, UnaryOperator.identity());
    }
}
