/**
 * Drift: {@link DriftCheck}, behind {@code mvn resilience:drift}, sends cassettes' requests to the live provider and
 * reports in a {@link DriftResult} how each answer differs from its cassette on what a loop depends on.
 */
package dev.resilienceharness.drift;
