package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.apiguardian.api.API;

/** Logs violations one per line and fails the goal once with a summary, or only warns. */
@API(status = INTERNAL, since = "0.1.0")
public final class Verdict {

    /** Where the goals that run scenarios send a user for the details. */
    public static final String REPORT_HINT = "run mvn resilience:report for details";

    private Verdict() {
    }

    /**
     * Logs each violation on its own line ({@code [ERROR]}, or {@code [WARNING]} when not failing), then throws
     * one {@link RunFailure} summarising them when {@code fail} is set.
     */
    public static void deliver(RunLog log, String goal, List<Violation> violations, boolean fail, String reportHint)
            throws RunFailure {
        if (violations.isEmpty()) {
            return;
        }
        for (Violation v : violations) {
            if (fail) {
                log.error(v.line());
            } else {
                log.warn(v.line());
            }
        }
        String summary = summary(violations) + (reportHint == null ? "" : "; " + reportHint);
        if (fail) {
            throw new RunFailure("resilience:" + goal + ": " + summary);
        }
        log.warn("resilience:" + goal + ": " + summary + " (not failing: failOnViolation is false)");
    }

    /** {@code 3 violations (budget 2, expectations 1)}. */
    public static String summary(List<Violation> violations) {
        Map<Invariant, Integer> counts = new EnumMap<>(Invariant.class);
        violations.forEach(v -> counts.merge(v.invariant(), 1, Integer::sum));
        StringJoiner by = new StringJoiner(", ", " (", ")");
        counts.forEach((inv, n) -> by.add(inv.id() + " " + n));
        return violations.size() + (violations.size() == 1 ? " violation" : " violations") + by;
    }
}
