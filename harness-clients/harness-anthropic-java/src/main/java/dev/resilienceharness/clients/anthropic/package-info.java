/**
 * The anthropic-java adapter: {@link HarnessAnthropic} gives a team a real anthropic-java client bound to one
 * scenario run, so the code the loop ships meets the run's faults through the SDK's own retries and timeouts.
 */
package dev.resilienceharness.clients.anthropic;
