package dev.resilienceharness.scenario;

/**
 * Hands a shared endpoint to the runs that share it one call at a time, in order of virtual time, so that the limits
 * see their calls in the same order every run.
 */
interface EndpointTurns {

    /** For a run with an endpoint of its own: it never waits for a turn. */
    EndpointTurns NONE = atNanos -> { };

    /** Returns when this run's call at {@code atNanos} is the next the endpoint answers. */
    void await(long atNanos);
}
