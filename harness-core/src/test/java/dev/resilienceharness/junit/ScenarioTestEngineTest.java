package dev.resilienceharness.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import dev.resilienceharness.testing.TestProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
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
        assertEquals("expectations", failed.getTestDescriptor().getDisplayName());
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
                && e.getTestDescriptor().getDisplayName().equals("expectations")).count());
    }
}
