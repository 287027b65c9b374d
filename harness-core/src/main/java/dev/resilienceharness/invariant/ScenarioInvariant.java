package dev.resilienceharness.invariant;

import dev.resilienceharness.trace.RunTrace;
import java.util.List;

/** An invariant judged on one scenario run's trace. */
public interface ScenarioInvariant {

    Invariant invariant();

    /** The violations in {@code trace}; empty when it holds. */
    List<Violation> check(RunTrace trace);
}
