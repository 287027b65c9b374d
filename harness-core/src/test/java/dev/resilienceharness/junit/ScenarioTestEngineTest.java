package dev.resilienceharness.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import dev.resilienceharness.testing.TestProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.junit.platform.testkit.engine.Events;

/** Scenarios run as JUnit Platform tests: a container per scenario, a test per invariant. */
class ScenarioTestEngineTest {

    static final String YAML = """
            version: 1
            volatile: []
            policy: {max_total_wait: 30s}
            scenarios:
              - name: transient-then-ok
                ops: [plan]
                faults: [timeout, none]
                expect: {status: [ok], attempts: [2]}
              - name: wrong-expectation
                ops: [plan, patch]
                faults: [none, quota]
                expect: {status: [ok, ok]}
            """;

    @TempDir
    Path dir;

    @Test
    void each_scenario_and_invariant_is_a_test() throws Exception {
        TestProject.create(dir, YAML, "plan", "patch");
        Events tests = EngineTestKit.engine(new ScenarioTestEngine())
                .selectors(selectFile(dir.resolve("resilience.yaml").toFile()))
                .execute().testEvents();
        tests.assertStatistics(s -> s.started(10).succeeded(9).failed(1));
        Event failed = tests.failed().stream().findFirst().orElseThrow();
        assertEquals("wrong-expectation [expectations]", failed.getTestDescriptor().getDisplayName());
        String message = failed.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow()
                .getMessage();
        assertEquals("wrong-expectation [expectations] op 'patch': expect.status is [ok, ok] but the outcomes show"
                + " [ok, stopped] (bound [ok, ok], actual [ok, stopped]). Fix the loop, or the scenario's expect"
                + " list if the policy changed on purpose", message);
    }

    @Test
    void each_scenario_publishes_its_report() throws Exception {
        TestProject.create(dir, YAML, "plan", "patch");
        List<Event> entries = EngineTestKit.engine(new ScenarioTestEngine())
                .selectors(selectFile(dir.resolve("resilience.yaml").toFile()))
                .configurationParameter(ScenarioTestEngine.PARALLEL, "false")
                .execute().allEvents().reportingEntryPublished().list();
        assertEquals(2, entries.size());
        assertTrue(entries.get(0).toString().contains("\"call_budget\":2"), entries.get(0).toString());
    }

    @Test
    void a_unique_id_reruns_one_scenario() throws Exception {
        TestProject.create(dir, YAML, "plan", "patch");
        String file = dir.resolve("resilience.yaml").toAbsolutePath().normalize().toString();
        UniqueId id = UniqueId.forEngine(ScenarioTestEngine.ENGINE_ID).append("config", file)
                .append("scenario", "transient-then-ok");
        Events containers = EngineTestKit.engine(new ScenarioTestEngine())
                .selectors(selectUniqueId(UniqueId.parse(id.toString())))
                .execute().containerEvents();
        assertEquals(1, containers.started().filter(e -> e.getTestDescriptor().getDisplayName()
                .equals("transient-then-ok")).count());
        assertEquals(0, containers.started().filter(e -> e.getTestDescriptor().getDisplayName()
                .equals("wrong-expectation")).count());
    }

    @Test
    void a_unique_id_reruns_one_invariant_of_one_scenario() throws Exception {
        // Surefire's rerunFailingTestsCount selects each failed test by its unique id.
        TestProject.create(dir, YAML, "plan", "patch");
        String file = dir.resolve("resilience.yaml").toAbsolutePath().normalize().toString();
        UniqueId id = UniqueId.forEngine(ScenarioTestEngine.ENGINE_ID).append("config", file)
                .append("scenario", "wrong-expectation").append("invariant", "expectations");
        Events tests = EngineTestKit.engine(new ScenarioTestEngine())
                .selectors(selectUniqueId(UniqueId.parse(id.toString())))
                .execute().testEvents();
        tests.assertStatistics(s -> s.started(1).failed(1));
        assertEquals("wrong-expectation [expectations]",
                tests.failed().stream().findFirst().orElseThrow().getTestDescriptor().getDisplayName());
    }

    @Test
    void a_bad_yaml_fails_its_container_with_the_file_and_line() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), "version: 1\npolcy: {}\n");
        Events containers = EngineTestKit.engine(new ScenarioTestEngine())
                .selectors(selectFile(dir.resolve("resilience.yaml").toFile()))
                .execute().containerEvents();
        Event failed = containers.failed().stream().findFirst().orElseThrow();
        String message = failed.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow()
                .getMessage();
        assertTrue(message.startsWith(dir.resolve("resilience.yaml") + ":2:1: polcy: unknown key 'polcy'; did you"
                + " mean 'policy'?"), message);
    }

    @Test
    void only_selected_invariants_become_tests() throws Exception {
        TestProject.create(dir, YAML, "plan", "patch");
        Events tests = EngineTestKit.engine(new ScenarioTestEngine())
                .selectors(selectFile(dir.resolve("resilience.yaml").toFile()))
                .configurationParameter(ScenarioTestEngine.INVARIANTS, "budget,determinism")
                .execute().testEvents();
        tests.assertStatistics(s -> s.started(4).succeeded(4));
        assertEquals(0, tests.list().stream().filter(e -> e.getType() == EventType.FINISHED
                && e.getTestDescriptor().getUniqueId().getLastSegment().getValue().equals("expectations")).count());
    }

    @Test
    void a_config_that_declares_tools_has_a_side_effects_test_per_scenario() throws Exception {
        TestProject.create(dir, YAML.replace("scenarios:", "tools: {refund: {side_effects: true}}\nscenarios:"),
                "plan", "patch");
        Events tests = EngineTestKit.engine(new ScenarioTestEngine())
                .selectors(selectFile(dir.resolve("resilience.yaml").toFile()))
                .execute().testEvents();
        tests.assertStatistics(s -> s.started(12).succeeded(11).failed(1));
        assertEquals(List.of("transient-then-ok [side_effects]", "wrong-expectation [side_effects]"),
                tests.succeeded().stream().map(e -> e.getTestDescriptor().getDisplayName())
                        .filter(n -> n.endsWith("[side_effects]")).sorted().toList());
        Events picked = EngineTestKit.engine(new ScenarioTestEngine())
                .selectors(selectFile(dir.resolve("resilience.yaml").toFile()))
                .configurationParameter(ScenarioTestEngine.INVARIANTS, "side_effects")
                .execute().testEvents();
        picked.assertStatistics(s -> s.started(2).succeeded(2));
    }

    @Test
    void surefire_finds_a_class_source_above_every_test_and_a_name_of_its_own() throws Exception {
        // Surefire counts and reports a test only inside the test set of its topmost container with a class
        // source; without one, mvn test ran the scenarios and left them out of "Tests run". Within that test
        // set it tells tests apart by display name alone, and merges tests of one name as reruns.
        TestProject.create(dir, YAML, "plan", "patch");
        try (LauncherSession session = LauncherFactory.openSession(engineOnly())) {
            TestPlan plan = session.getLauncher().discover(LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClass(ScenarioTestEngineTest.class))
                    .configurationParameter(ScenarioTestEngine.CONFIG, yaml())
                    .build());
            List<TestIdentifier> tests = plan.getRoots().stream()
                    .flatMap(root -> plan.getDescendants(root).stream()).filter(TestIdentifier::isTest).toList();
            assertEquals(10, tests.size());
            for (TestIdentifier test : tests) {
                TestIdentifier top = test;
                while (plan.getParent(plan.getParent(top).orElseThrow()).isPresent()) {
                    top = plan.getParent(top).orElseThrow();
                }
                assertEquals(ClassSource.from(ResilienceScenarios.class), top.getSource().orElseThrow(),
                        test.getUniqueId());
            }
            assertEquals(10, tests.stream().map(TestIdentifier::getDisplayName).distinct().count());
            assertTrue(tests.stream().anyMatch(t -> t.getDisplayName().equals("transient-then-ok [budget]")));
        }
    }

    @Test
    void a_request_per_test_class_runs_the_scenarios_once_per_session() throws Exception {
        // What surefire does when it hands classes to its forks one at a time: one launcher session, one
        // request per test class, each a class selector for a class that holds no scenario.
        TestProject.create(dir, YAML, "plan", "patch");
        AtomicInteger started = new AtomicInteger();
        try (LauncherSession session = LauncherFactory.openSession(engineOnly())) {
            for (Class<?> testClass : List.of(ScenarioTestEngineTest.class, String.class, Integer.class)) {
                execute(session, started, selectClass(testClass));
            }
        }
        assertEquals(10, started.get());
    }

    @Test
    void each_launcher_session_runs_the_scenarios() throws Exception {
        TestProject.create(dir, YAML, "plan", "patch");
        AtomicInteger started = new AtomicInteger();
        for (int i = 0; i < 2; i++) {
            try (LauncherSession session = LauncherFactory.openSession(engineOnly())) {
                execute(session, started, selectClass(ScenarioTestEngineTest.class));
            }
        }
        assertEquals(20, started.get());
    }

    @Test
    void selecting_the_marker_class_or_a_file_runs_them_again_in_the_same_session() throws Exception {
        TestProject.create(dir, YAML, "plan", "patch");
        AtomicInteger started = new AtomicInteger();
        try (LauncherSession session = LauncherFactory.openSession(engineOnly())) {
            execute(session, started, selectClass(ScenarioTestEngineTest.class));
            execute(session, started, selectClass(ResilienceScenarios.class));
            execute(session, started, selectUniqueId(UniqueId.forEngine(ScenarioTestEngine.ENGINE_ID)));
            execute(session, started, selectFile(dir.resolve("resilience.yaml").toFile()));
        }
        assertEquals(40, started.get());
    }

    private String yaml() {
        return dir.resolve("resilience.yaml").toString();
    }

    private static LauncherConfig engineOnly() {
        return LauncherConfig.builder()
                .enableTestEngineAutoRegistration(false)
                .enableTestExecutionListenerAutoRegistration(false)
                .enableLauncherSessionListenerAutoRegistration(false)
                .enableLauncherDiscoveryListenerAutoRegistration(false)
                .enablePostDiscoveryFilterAutoRegistration(false)
                .addTestEngines(new ScenarioTestEngine())
                .build();
    }

    private void execute(LauncherSession session, AtomicInteger started, DiscoverySelector selector) {
        session.getLauncher().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selector)
                .configurationParameter(ScenarioTestEngine.CONFIG, yaml())
                .build(), new TestExecutionListener() {
                    @Override
                    public void executionStarted(TestIdentifier id) {
                        if (id.isTest()) {
                            started.incrementAndGet();
                        }
                    }
                });
    }
}
