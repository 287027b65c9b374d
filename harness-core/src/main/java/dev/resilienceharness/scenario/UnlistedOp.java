package dev.resilienceharness.scenario;

/**
 * A call the run cannot answer because it is for no op of the scenario: an op the scenario does not list and no
 * cassette answers, or an SDK request made outside every op scope that matches no op. An {@link Error}, so that a
 * loop's {@code catch (Exception e)} cannot hide it; the run ends and is reported under budget.
 */
final class UnlistedOp extends Error {

    private static final long serialVersionUID = 1L;

    UnlistedOp(String message) {
        super(message, null, false, false);
    }
}
