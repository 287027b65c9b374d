/**
 * The invariants a check judges, one class each by the {@link Invariant} ids the reports use ({@link CallBudget},
 * {@link BoundedWaiting}, {@link ReplayDeterminism}, ...); each broken one is a {@link Violation} saying where, what
 * and what to do.
 */
package dev.resilienceharness.invariant;
