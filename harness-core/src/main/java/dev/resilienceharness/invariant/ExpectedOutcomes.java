package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.trace.RunTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * Invariant 5, expectations: each given {@code expect} list (status, attempts, reason, retry_after, elapsed_ms,
 * concurrency) matches, and every outcome carries the fields its failure requires ({@link RequiredFields}).
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ExpectedOutcomes implements ScenarioInvariant {

    @Override
    public Invariant invariant() {
        return Invariant.EXPECTATIONS;
    }

    @Override
    public List<Violation> check(RunTrace trace) {
        List<Violation> out = new ArrayList<>();
        if (trace.failure() != null) {
            // The run returned no outcomes; its failure is reported once, under its own invariant.
            return out;
        }
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

    /** A list as the message shows it: {@code retry_after} texts quoted, so that "2" is not read as a number. */
    private static String shown(String list, List<?> values) {
        if (!list.equals("retry_after")) {
            return String.valueOf(values);
        }
        List<String> items = new ArrayList<>();
        for (Object v : values) {
            items.add(v == null ? "null" : "\"" + v + "\"");
        }
        return "[" + String.join(", ", items) + "]";
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
        String shownExpected = shown(list, expected);
        String shownActual = shown(list, actual);
        out.add(new Violation(Invariant.EXPECTATIONS, trace.scenario().name(), op, shownExpected, shownActual,
                Messages.expectationMismatch(list, shownExpected, shownActual), Messages.HINT_EXPECT));
    }
}
