/**
 * {@code resilience:init}'s engine: {@link ProjectInit} finds the project's {@link Sdk} and writes a first
 * {@code resilience.yaml}, loop and test class from the templates beside these classes.
 */
package dev.resilienceharness.init;
