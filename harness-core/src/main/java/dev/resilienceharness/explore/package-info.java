/**
 * Exploration, behind {@code mvn resilience:explore}: the {@link Explorer} searches a scenario's fault plans for one
 * that breaks an invariant and shrinks it to a minimal {@link Counterexample}, printed as a scenario to paste into
 * {@code resilience.yaml}.
 */
package dev.resilienceharness.explore;
