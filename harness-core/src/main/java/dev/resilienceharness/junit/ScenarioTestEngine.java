package dev.resilienceharness.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.config.ConfigException;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.scenario.SetupException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.ClasspathRootSelector;
import org.junit.platform.engine.discovery.FileSelector;
import org.junit.platform.engine.discovery.PackageSelector;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.opentest4j.AssertionFailedError;

/**
 * Runs {@code resilience.yaml} scenarios as JUnit Platform tests: one container per scenario, one test per
 * invariant, so {@code mvn test}, IDEs and the plugin's goals all run scenarios the same way.
 *
 * <p>It discovers a yaml selected as a file, and, on a general discovery (classpath root, package or class
 * selectors, as surefire and IDEs send), the file named by the configuration parameter
 * {@value #CONFIG} or else {@code resilience.yaml} in the working directory. A file found that way runs once
 * per launcher session however many requests find it: surefire, when it hands test classes to its forks one
 * at a time, sends a request per test class in one session. Selecting the class {@link ResilienceScenarios}
 * (or the engine's own unique id) asks for that file on purpose, and it runs again. Configuration parameters:
 * {@value #RUNS} (determinism runs, default 2), {@value #INVARIANTS} (comma-separated invariant ids to check,
 * default all five scenario invariants) and {@value #PARALLEL} (run scenarios on all cores, default true).
 * Each scenario publishes its {@link ScenarioReport} as a report entry under {@value #REPORT_KEY}. The goals check
 * scenarios through {@link Rehearsal#checkAll} as this engine does, without the platform around it.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ScenarioTestEngine implements TestEngine {

    public static final String ENGINE_ID = "resilience-harness";
    public static final String CONFIG = "resilience.config";
    public static final String RUNS = "resilience.runs";
    public static final String INVARIANTS = "resilience.invariants";
    public static final String PARALLEL = "resilience.parallel";
    public static final String REPORT_KEY = "resilience.scenario";

    /** The engine as surefire and IDEs find it: it reads the yaml and publishes each report as a report entry. */
    public ScenarioTestEngine() {
    }

    @Override
    public String getId() {
        return ENGINE_ID;
    }

    @Override
    public Optional<String> getGroupId() {
        return Optional.of("dev.resilienceharness");
    }

    @Override
    public Optional<String> getArtifactId() {
        return Optional.of("harness-core");
    }

    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        EngineDescriptor engine = new EngineDescriptor(uniqueId, "Resilience Harness");
        Set<Path> files = new LinkedHashSet<>();
        for (FileSelector s : request.getSelectorsByType(FileSelector.class)) {
            String name = s.getPath().getFileName().toString();
            if (name.endsWith(".yaml") || name.endsWith(".yml")) {
                files.add(s.getPath().toAbsolutePath().normalize());
            }
        }
        // Scenarios picked by unique id, each with the invariants picked (all of them for a scenario's own id):
        // surefire reruns a failed test by its id, and should hear again of that test alone.
        Map<String, Set<Invariant>> picked = new HashMap<>();
        for (UniqueIdSelector s : request.getSelectorsByType(UniqueIdSelector.class)) {
            List<UniqueId.Segment> segs = s.getUniqueId().getSegments();
            if (!segs.isEmpty() && segs.get(0).getValue().equals(ENGINE_ID) && segs.size() >= 2
                    && segs.get(1).getType().equals(ConfigDescriptor.SEGMENT)) {
                files.add(Path.of(segs.get(1).getValue()));
                if (segs.size() >= 3) {
                    Set<Invariant> these = picked.computeIfAbsent(segs.get(2).getValue(),
                            name -> EnumSet.noneOf(Invariant.class));
                    Invariant one = segs.size() >= 4 ? Invariant.fromId(segs.get(3).getValue()) : null;
                    these.addAll(one == null ? Rehearsal.TOOL_RUN_INVARIANTS : Set.of(one));
                }
            }
        }
        boolean marker = request.getSelectorsByType(ClassSelector.class).stream()
                .anyMatch(c -> c.getClassName().equals(ResilienceScenarios.class.getName()))
                || request.getSelectorsByType(UniqueIdSelector.class).stream()
                        .anyMatch(u -> u.getUniqueId().equals(uniqueId));
        boolean general = marker || !request.getSelectorsByType(ClasspathRootSelector.class).isEmpty()
                || !request.getSelectorsByType(PackageSelector.class).isEmpty()
                || !request.getSelectorsByType(ClassSelector.class).isEmpty();
        boolean implicit = false;
        if (general && files.isEmpty()) {
            Path file = request.getConfigurationParameters().get(CONFIG).map(Path::of)
                    .orElse(Path.of("resilience.yaml")).toAbsolutePath().normalize();
            if (Files.isRegularFile(file)) {
                files.add(file);
                implicit = !marker;
            }
        }
        Set<Invariant> named = invariants(request.getConfigurationParameters());
        for (Path file : files) {
            UniqueId configId = uniqueId.append(ConfigDescriptor.SEGMENT, file.toString());
            HarnessConfig config = null;
            ConfigException error = null;
            try {
                config = ConfigLoader.load(file);
            } catch (ConfigException e) {
                error = e;
            }
            ConfigDescriptor cd = new ConfigDescriptor(configId, file, config, error, implicit);
            engine.addChild(cd);
            if (config == null) {
                continue;
            }
            Set<Invariant> invariants = named == Rehearsal.RUN_INVARIANTS ? Rehearsal.runInvariants(config) : named;
            for (Scenario s : config.scenarios()) {
                if (!picked.isEmpty() && !picked.containsKey(s.name())) {
                    continue;
                }
                ScenarioDescriptor sd = new ScenarioDescriptor(configId.append(ScenarioDescriptor.SEGMENT, s.name()),
                        file, s);
                cd.addChild(sd);
                for (Invariant inv : invariants) {
                    if (!picked.isEmpty() && !picked.get(s.name()).contains(inv)) {
                        continue;
                    }
                    sd.addChild(new InvariantDescriptor(sd.getUniqueId().append(InvariantDescriptor.SEGMENT,
                            inv.id()), s.name(), inv, sd.getSource().orElse(null)));
                }
            }
        }
        return engine;
    }

    /** The invariants named by {@value #INVARIANTS}, or all scenario invariants. */
    static Set<Invariant> invariants(ConfigurationParameters params) {
        Optional<String> list = params.get(INVARIANTS);
        if (list.isEmpty() || list.get().isBlank()) {
            return Rehearsal.RUN_INVARIANTS;
        }
        Set<Invariant> out = EnumSet.noneOf(Invariant.class);
        for (String id : list.get().split(",")) {
            Invariant inv = Invariant.fromId(id.strip());
            if (inv == null || !Rehearsal.TOOL_RUN_INVARIANTS.contains(inv)) {
                throw new IllegalArgumentException(INVARIANTS + ": unknown scenario invariant '" + id.strip()
                        + "'; expected some of budget, determinism, partial_work, bounded_wait, expectations,"
                        + " side_effects");
            }
            out.add(inv);
        }
        return out;
    }

    @Override
    public void execute(ExecutionRequest request) {
        TestDescriptor engine = request.getRootTestDescriptor();
        EngineExecutionListener listener = new SynchronizedListener(request.getEngineExecutionListener());
        ConfigurationParameters params = request.getConfigurationParameters();
        int runs = params.get(RUNS, Integer::parseInt).orElse(2);
        boolean parallel = params.getBoolean(PARALLEL).orElse(true);
        Set<Path> alreadyRun = SessionRuns.of(request);
        listener.executionStarted(engine);
        for (TestDescriptor child : engine.getChildren()) {
            ConfigDescriptor cd = (ConfigDescriptor) child;
            // Surefire sends a request per test class when it hands classes out to forks one at a time, and
            // each finds resilience.yaml again: run a found file once per launcher session, and leave its
            // later copies unreported (reporting them skipped would count them as skipped tests).
            if (cd.implicit() && !alreadyRun.add(cd.file())) {
                continue;
            }
            executeConfig(cd, listener, runs, parallel);
        }
        listener.executionFinished(engine, TestExecutionResult.successful());
    }

    private void executeConfig(ConfigDescriptor cd, EngineExecutionListener listener, int runs,
            boolean parallel) {
        listener.executionStarted(cd);
        if (cd.error() != null) {
            listener.executionFinished(cd, TestExecutionResult.failed(new AssertionFailedError(cd.error().getMessage())));
            return;
        }
        Rehearsal rehearsal;
        try {
            rehearsal = Rehearsal.forLoopOf(cd.config(), Thread.currentThread().getContextClassLoader(), null, null);
        } catch (SetupException e) {
            listener.executionFinished(cd, TestExecutionResult.failed(new AssertionFailedError(e.getMessage())));
            return;
        }
        Map<Scenario, ScenarioDescriptor> descriptors = new IdentityHashMap<>();
        List<Scenario> scenarios = new ArrayList<>();
        cd.getChildren().forEach(c -> {
            ScenarioDescriptor sd = (ScenarioDescriptor) c;
            descriptors.put(sd.scenario(), sd);
            scenarios.add(sd.scenario());
        });
        // A scenario's events are sent when it has been checked: by then it has started and finished.
        rehearsal.checkAll(scenarios, runs, s -> invariantsOf(descriptors.get(s)),
                parallel ? Runtime.getRuntime().availableProcessors() : 1,
                (s, result) -> report(descriptors.get(s), listener, result),
                (s, e) -> {
                    ScenarioDescriptor sd = descriptors.get(s);
                    listener.executionStarted(sd);
                    listener.executionFinished(sd, TestExecutionResult.failed(e));
                });
        listener.executionFinished(cd, TestExecutionResult.successful());
    }

    /** The invariants a scenario's descriptor asks for: its children's, or all five when it has none. */
    private static Set<Invariant> invariantsOf(ScenarioDescriptor sd) {
        Set<Invariant> which = EnumSet.noneOf(Invariant.class);
        sd.getChildren().forEach(c -> which.add(((InvariantDescriptor) c).invariant()));
        return which.isEmpty() ? Rehearsal.RUN_INVARIANTS : which;
    }

    private void report(ScenarioDescriptor sd, EngineExecutionListener listener, ScenarioResult result) {
        listener.executionStarted(sd);
        listener.reportingEntryPublished(sd, ReportEntry.from(REPORT_KEY,
                Json.compact(ScenarioReport.of(result).toJson())));
        for (TestDescriptor child : sd.getChildren()) {
            InvariantDescriptor id = (InvariantDescriptor) child;
            listener.executionStarted(id);
            List<String> lines = new ArrayList<>();
            for (Violation v : result.violations()) {
                if (v.invariant() == id.invariant()) {
                    lines.add(v.line());
                }
            }
            listener.executionFinished(id, lines.isEmpty() ? TestExecutionResult.successful()
                    : TestExecutionResult.failed(new AssertionFailedError(String.join(System.lineSeparator(), lines))));
        }
        boolean cassetteTrouble = result.violations().stream().anyMatch(v -> v.invariant() == Invariant.CASSETTES);
        listener.executionFinished(sd, cassetteTrouble
                ? TestExecutionResult.failed(new AssertionFailedError(result.violations().stream()
                        .filter(v -> v.invariant() == Invariant.CASSETTES).map(Violation::line).findFirst().orElse("")))
                : TestExecutionResult.successful());
    }
}
