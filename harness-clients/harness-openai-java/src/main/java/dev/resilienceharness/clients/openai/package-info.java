/**
 * The openai-java adapter: {@link HarnessOpenAi} gives a team real openai-java clients bound to one scenario run, so
 * the code the loop ships meets the run's faults through the SDK's own retries and timeouts.
 */
package dev.resilienceharness.clients.openai;
