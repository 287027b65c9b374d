package dev.resilienceharness.invariant;

import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.trace.RunTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Invariant 5, expectations: each given {@code expect} list (status, attempts, reason, retry_after, elapsed_ms,
 * concurrency) matches, and every outcome carries the fields its failure requires ({@link RequiredFields}).
 */
public final class ExpectedOutcomes implements ScenarioInvariant {

    @Override
    public Invariant invariant() {
        return Invariant.EXPECTATIONS;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        Expectations expect = trace.scenario().expect();
        compare(trace, "status", expect.status(), o -> o.status().jsonName(), out);
        compare(trace, "attempts", expect.attempts(), Outcome::attempts, out);
        compare(trace, "reason", expect.reason(), Outcome::reason, out);
        compare(trace, "retry_after", expect.retryAfter(), Outcome::retryAfter, out);
        compare(trace, "elapsed_ms", expect.elapsedMs(), Outcome::elapsedMs, out);
        compare(trace, "concurrency", expect.concurrency(), Outcome::concurrency, out);
        out.addAll(RequiredFields.check(trace));
        return out;
    }

    private static <T> void compare(RunTrace trace, String list, List<T> expected, Function<Outcome, T> field,
            List<Violation> out) {
        if (expected == null) {
            return;
        }
        List<Object> actual = new ArrayList<>();
        for (Outcome o : trace.outcomes()) {
            actual.add(field.apply(o));
        }
        if (actual.equals(new ArrayList<Object>(expected))) {
            return;
        }
        String op = null;
        for (int i = 0; i < Math.max(actual.size(), expected.size()); i++) {
            Object a = i < actual.size() ? actual.get(i) : null;
            Object e = i < expected.size() ? expected.get(i) : null;
            if (i >= actual.size() || i >= expected.size() || !Objects.equals(a, e)) {
                op = i < trace.outcomes().size() ? trace.outcomes().get(i).op()
                        : i < trace.scenario().ops().size() ? trace.scenario().ops().get(i) : null;
                break;
            }
        }
        out.add(new Violation(Invariant.EXPECTATIONS, trace.scenario().name(), op, String.valueOf(expected),
                String.valueOf(actual), Messages.expectationMismatch(list, expected, actual), Messages.HINT_EXPECT));
    }
}
