/**
 * The loop's side of a provider call: a loop sends each request through a {@link Transport} and gets a {@link Reply}
 * or one of the closed set of {@link CallFailure}s ({@link QuotaExhausted}, {@link TransientError},
 * {@link BadToolCall}) it must plan for.
 */
package dev.resilienceharness.transport;
