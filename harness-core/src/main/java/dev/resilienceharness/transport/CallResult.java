package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * What one call through {@link Transport#send} gives back: the provider's {@link Reply}, or the {@link CallFailure} it
 * answered with instead. A loop that branches on the outcome tests which one it holds ({@code instanceof}); the set
 * is closed, as {@code CallFailure}'s is.
 */
@API(status = STABLE, since = "0.1.0")
public sealed interface CallResult permits Reply, CallFailure {
}
