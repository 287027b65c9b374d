package dev.resilienceharness.pipeline;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.scenario.KeptAnswers;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.SetupException;
import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;

/**
 * Runs a config's scenarios for a goal, on all cores, with the project's test classpath visible so that the team's
 * own loop loads: the loop is made and the rehearsal prepared as the test engine ({@code ScenarioTestEngine}, which
 * surefire and the IDE run) does, and every scenario is checked by {@link Rehearsal#checkAll}, as there. The goals do
 * without the JUnit Platform launcher around it, which a cold check of 2,000 scenarios paid for measurably (the
 * launcher's and the platform's classes, and a test descriptor and listener events for each scenario and invariant;
 * bench/README.md, "The scenarios without the launcher").
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ScenarioLauncher {

    /** What the scenarios came to: one report per scenario, or the setup errors that kept them from running. */
    record Outcome(List<ScenarioReport> scenarios, List<String> setupErrors) {
    }

    private ScenarioLauncher() {
    }

    /**
     * Checks {@code config}'s scenarios for {@code invariants}.
     *
     * @param stallBound           how long a run of a team's loop may make no call and no wait ({@code StallBound})
     * @param verifiedFingerprints each op's request fingerprint when every op's cassette has been found present and
     *                             readable already, else {@code null}
     * @param kept                 the answers the verification has already read (may be {@code null})
     * @param keep                 what of each scenario's report is kept when the scenario finishes (a goal that
     *                             delivers only violations and counts keeps {@link ScenarioReport#withoutOutcomes()})
     */
    static Outcome run(HarnessConfig config, Set<Invariant> invariants, int runs, Duration stallBound,
            List<String> testClasspath, Map<String, String> verifiedFingerprints, KeptAnswers kept,
            UnaryOperator<ScenarioReport> keep) throws RunError {
        List<ScenarioReport> reports = Collections.synchronizedList(new ArrayList<>());
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader projectLoader = projectLoader(testClasspath)) {
            thread.setContextClassLoader(projectLoader);
            Rehearsal rehearsal;
            try {
                rehearsal = Rehearsal.forLoopOf(config, projectLoader, verifiedFingerprints, kept);
            } catch (SetupException e) {
                return new Outcome(List.of(), List.of(e.getMessage()));
            }
            rehearsal.stallBound(stallBound);
            rehearsal.checkAll(config.scenarios(), runs, s -> invariants, Runtime.getRuntime().availableProcessors(),
                    (s, result) -> reports.add(keep.apply(ScenarioReport.of(result))),
                    (s, e) -> errors.add("scenario '" + s.name() + "': " + (e.getMessage() == null ? e.toString()
                            : e.getMessage())));
        } catch (IOException e) {
            throw new RunError("cannot close the project's test class loader: " + e.getMessage(), e);
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

    /** The project's test classpath on top of the plugin's own classes (parent first, so core types agree). */
    public static URLClassLoader projectLoader(List<String> testClasspath) throws RunError {
        List<URL> urls = new ArrayList<>();
        for (String element : testClasspath) {
            try {
                urls.add(new File(element).toURI().toURL());
            } catch (MalformedURLException e) {
                throw new RunError("bad test classpath element " + element + ": " + e.getMessage(), e);
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), ScenarioLauncher.class.getClassLoader());
    }
}
