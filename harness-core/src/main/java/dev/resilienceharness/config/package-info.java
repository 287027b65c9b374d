/**
 * The {@code resilience.yaml} configuration: {@link ConfigLoader#load} reads it into a {@link HarnessConfig} of
 * {@link Scenario}s, or throws a {@link ConfigException} naming the file, line, column and key; the messages it can
 * say are in {@link ConfigMessages}.
 */
package dev.resilienceharness.config;
