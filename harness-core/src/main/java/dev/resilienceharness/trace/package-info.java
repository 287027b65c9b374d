/**
 * What a scenario run left behind, as the invariants and reports read it: a {@link RunTrace} of outcomes, waits and
 * restarts, with a {@link CallRecord} per transport call.
 */
package dev.resilienceharness.trace;
