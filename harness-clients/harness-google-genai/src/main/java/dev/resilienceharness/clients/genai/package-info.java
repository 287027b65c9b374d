/**
 * google-genai on a scenario run: {@link dev.resilienceharness.clients.genai.HarnessGenai} builds a real
 * {@code com.google.genai.Client} whose every HTTP attempt, the SDK's own retries included, is one call of the run.
 */
package dev.resilienceharness.clients.genai;
