package dev.resilienceharness.junit;

import dev.resilienceharness.invariant.Invariant;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/**
 * One invariant of one scenario: a test that fails with the violations found.
 *
 * <p>Its name carries the scenario, as violation lines do ({@code transient-then-ok [budget]}): surefire names
 * a test by its display name within the test set of the whole config, and takes tests of the same name for
 * reruns of one test, so plain invariant ids made three scenarios' {@code budget} tests count as one, with a
 * failure in one scenario reported as a flaky pass beside the others.
 */
final class InvariantDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "invariant";

    private final Invariant invariant;

    InvariantDescriptor(UniqueId id, String scenario, Invariant invariant, TestSource source) {
        super(id, scenario + " [" + invariant.id() + "]", source);
        this.invariant = invariant;
    }

    Invariant invariant() {
        return invariant;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }
}
