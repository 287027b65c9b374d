/**
 * The Spring AI adapter: {@link HarnessSpringAi} gives a team a real Spring AI chat model bound to one scenario run,
 * whose every attempt is a call of the run.
 */
package dev.resilienceharness.clients.springai;
