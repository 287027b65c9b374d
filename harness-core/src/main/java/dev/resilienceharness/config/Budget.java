package dev.resilienceharness.config;

/**
 * Explicit caps checked on top of the policy's own call bound.
 *
 * @param maxCallsPerScenario the most transport calls one scenario run may make, or {@code null}
 */
public record Budget(Integer maxCallsPerScenario) {

    public static final Budget NONE = new Budget(null);
}
