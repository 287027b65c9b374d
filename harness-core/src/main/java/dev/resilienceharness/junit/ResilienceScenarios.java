package dev.resilienceharness.junit;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * Stands for the scenarios of {@code resilience.yaml} wherever a tool needs a class.
 *
 * <p>Each config's container in the test plan has this class as its source. Surefire opens a test set only
 * for a container whose source is a class, and leaves tests outside any such container out of its counts and
 * XML reports; with this source, {@code mvn test} reports the scenarios as the test set
 * {@code dev.resilienceharness.junit.ResilienceScenarios}. Selecting this class
 * ({@code selectClass("dev.resilienceharness.junit.ResilienceScenarios")}, or
 * {@code --select-class} on the console launcher) runs the scenarios of {@code resilience.yaml} (or of the file
 * named by {@value ScenarioTestEngine#CONFIG}) on purpose, even if they already ran in the launcher session.
 */
@API(status = STABLE, since = "0.1.0")
public final class ResilienceScenarios {

    private ResilienceScenarios() {
    }
}
