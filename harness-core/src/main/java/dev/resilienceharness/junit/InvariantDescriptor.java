package dev.resilienceharness.junit;

import dev.resilienceharness.invariant.Invariant;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/** One invariant of one scenario: a test that fails with the violations found. */
final class InvariantDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "invariant";

    private final Invariant invariant;

    InvariantDescriptor(UniqueId id, Invariant invariant, TestSource source) {
        super(id, invariant.id(), source);
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
