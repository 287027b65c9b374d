/**
 * The JUnit Platform engine: {@link ScenarioTestEngine} runs {@code resilience.yaml}'s scenarios as tests, one
 * container per scenario and one test per invariant, so {@code mvn test} and IDEs show them.
 */
package dev.resilienceharness.junit;
