package dev.resilienceharness.maven;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.junit.ScenarioTestEngine;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.scenario.KeptAnswers;
import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs a config's scenarios through the JUnit Platform launcher with the harness's test engine (the same code
 * path as surefire and the IDE), with the project's test classpath visible so the team's own loop loads. The engine
 * is given the config already loaded and hands each scenario's report back in-process.
 */
final class ScenarioLauncher {

    /** What the scenarios came to: one report per scenario, or the setup errors that kept them from running. */
    record Outcome(List<ScenarioReport> scenarios, List<String> setupErrors) {
    }

    private ScenarioLauncher() {
    }

    /**
     * @param verifiedFingerprints each op's request fingerprint when every op's cassette has been found present and
     *                             readable already, else {@code null}
     */
    static Outcome run(HarnessConfig config, Set<Invariant> invariants, int runs, List<String> testClasspath,
            Map<String, String> verifiedFingerprints) throws MojoExecutionException {
        return run(config, invariants, runs, testClasspath, verifiedFingerprints, null);
    }

    /** As above; the runs take the answers the verification has already read from {@code kept} (may be null). */
    static Outcome run(HarnessConfig config, Set<Invariant> invariants, int runs, List<String> testClasspath,
            Map<String, String> verifiedFingerprints, KeptAnswers kept) throws MojoExecutionException {
        return run(config, invariants, runs, testClasspath, verifiedFingerprints, kept, UnaryOperator.identity());
    }

    /**
     * As above; each scenario's report is kept as {@code keep} makes it when the scenario finishes (a goal that
     * delivers only violations and counts keeps {@link ScenarioReport#withoutOutcomes()}).
     */
    static Outcome run(HarnessConfig config, Set<Invariant> invariants, int runs, List<String> testClasspath,
            Map<String, String> verifiedFingerprints, KeptAnswers kept, UnaryOperator<ScenarioReport> keep)
            throws MojoExecutionException {
        Path yaml = config.file();
        List<ScenarioReport> reports = Collections.synchronizedList(new ArrayList<>());
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        LauncherConfig launcherConfig = LauncherConfig.builder()
                .enableTestEngineAutoRegistration(false)
                .enableTestExecutionListenerAutoRegistration(false)
                .enableLauncherSessionListenerAutoRegistration(false)
                .enableLauncherDiscoveryListenerAutoRegistration(false)
                .enablePostDiscoveryFilterAutoRegistration(false)
                .addTestEngines(new ScenarioTestEngine(config, verifiedFingerprints, kept,
                        r -> reports.add(keep.apply(r))))
                .build();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectFile(yaml.toFile()))
                .configurationParameter(ScenarioTestEngine.RUNS, Integer.toString(runs))
                .configurationParameter(ScenarioTestEngine.INVARIANTS,
                        invariants.stream().map(Invariant::id).collect(Collectors.joining(",")))
                .configurationParameter("junit.platform.discovery.issue.severity.critical", "error")
                .build();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isContainer() && result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                    errors.add(result.getThrowable().map(ScenarioLauncher::message).orElse(id.getDisplayName()));
                }
            }
        };
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader projectLoader = projectLoader(testClasspath)) {
            thread.setContextClassLoader(projectLoader);
            Launcher launcher = LauncherFactory.create(launcherConfig);
            launcher.execute(request, listener);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot close the project's test class loader: " + e.getMessage(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
        // Scenarios finish in any order on several threads; reports list them as the yaml does.
        Map<String, Integer> order = new HashMap<>();
        for (Scenario s : config.scenarios()) {
            order.putIfAbsent(s.name(), order.size());
        }
        List<ScenarioReport> ordered = new ArrayList<>(reports);
        ordered.sort(Comparator.comparingInt(r -> order.getOrDefault(r.name(), Integer.MAX_VALUE)));
        return new Outcome(ordered, List.copyOf(errors));
    }

    /** A container's failure with what caused it, which is what a user can act on. */
    private static String message(Throwable t) {
        Throwable cause = t.getCause();
        return cause == null || cause == t ? t.getMessage() : t.getMessage() + ": " + cause;
    }

    /** The project's test classpath on top of the plugin's own classes (parent first, so core types agree). */
    static URLClassLoader projectLoader(List<String> testClasspath) throws MojoExecutionException {
        List<URL> urls = new ArrayList<>();
        for (String element : testClasspath) {
            try {
                urls.add(new File(element).toURI().toURL());
            } catch (MalformedURLException e) {
                throw new MojoExecutionException("bad test classpath element " + element + ": " + e.getMessage(), e);
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), ScenarioLauncher.class.getClassLoader());
    }
}
