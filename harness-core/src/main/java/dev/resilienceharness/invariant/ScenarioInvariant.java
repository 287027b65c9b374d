package dev.resilienceharness.invariant;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.trace.RunTrace;
import java.util.List;
import org.apiguardian.api.API;

/** An invariant judged on one scenario run's trace. */
@API(status = INTERNAL, since = "0.1.0")
public interface ScenarioInvariant {

    Invariant invariant();

    /** The violations in {@code trace}; empty when it holds. */
    List<Violation> check(RunTrace trace);
}
