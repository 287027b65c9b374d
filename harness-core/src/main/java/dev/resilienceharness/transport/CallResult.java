package dev.resilienceharness.transport;

/**
 * What one call through {@link Transport#send} gives back: the provider's {@link Reply}, or the {@link CallFailure} it
 * answered with instead. A loop that branches on the outcome tests which one it holds ({@code instanceof}); the set
 * is closed, as {@code CallFailure}'s is.
 */
public sealed interface CallResult permits Reply, CallFailure {
}
