/**
 * The Maven plugin (goal prefix {@code resilience}): one Mojo per goal ({@code check}, {@code record}, {@code serve},
 * {@code drift}, {@code explore}, ...) reads its parameters, calls the engine in {@code harness-core} and logs what
 * comes back. Teams use the goals, not these classes.
 */
package dev.resilienceharness.maven;
