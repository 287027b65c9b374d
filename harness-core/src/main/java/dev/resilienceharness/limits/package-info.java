/**
 * A provider's rate limits on the virtual clock, as {@code provider_limits:} declares them: the {@link Limiter} admits
 * or refuses each call by its windows, quota and concurrency, and a refusal is the {@link Refusal} 429 a provider
 * would send.
 */
package dev.resilienceharness.limits;
