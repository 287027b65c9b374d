/**
 * A loop's degradation {@link Policy}: how often to retry, how long to wait, and what to do on a quota rejection or a
 * broken tool call, as {@code policy:} declares it.
 */
package dev.resilienceharness.policy;
