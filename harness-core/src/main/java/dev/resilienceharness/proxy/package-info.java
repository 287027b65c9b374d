/**
 * The replay proxy behind {@code mvn resilience:serve}: {@link ReplayProxy} answers OpenAI and Anthropic requests on a
 * loopback port from cassettes, with a scenario's faults as real HTTP, for loops in any language; {@link ServeOptions}
 * says how it is started.
 */
package dev.resilienceharness.proxy;
