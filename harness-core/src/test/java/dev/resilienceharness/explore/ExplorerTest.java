package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.brokenloops.ForgetfulRestartLoop;
import dev.resilienceharness.brokenloops.UnboundedWaitLoop;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExplorerTest {

    static final String YAML = """
            version: 1
            volatile: []
            policy:
              max_attempts: 3
              base_delay: 10ms
              max_delay: 5s
              max_total_wait: 30s
              quota: {with_retry_after: retry_once, max_retry_after: 60s}
              schema: {repair_attempts: 1}
            scenarios:
              - name: one
                ops: [plan]
              - name: two
                ops: [plan, patch]
              - name: waits
                ops: [plan]
                policy: {max_attempts: 10, base_delay: 1s, max_delay: 1s, max_total_wait: 10s}
            """;

    @TempDir
    Path dir;

    ExplorationResult explore(LoopFactory loop, String scenario, Explorer.Settings settings) throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan", "patch");
        Rehearsal rehearsal = Rehearsal.prepare(config, loop);
        Scenario s = config.scenarios().stream().filter(x -> x.name().equals(scenario)).findFirst().orElseThrow();
        return new Explorer(rehearsal).explore(s, settings);
    }

    @Test
    void probe() throws Exception {
        for (var c : explore(RetriesQuotaLoop::new, "two", Explorer.Settings.DEFAULTS).counterexamples()) {
            System.out.println(c.invariant() + " " + c.plan() + " " + c.foundIn() + " " + c.foundAt() + "\n" + c.yaml());
        }
        for (var c : explore(UnboundedWaitLoop::new, "waits", Explorer.Settings.DEFAULTS).counterexamples()) {
            System.out.println(c.invariant() + " " + c.plan() + " " + c.foundIn() + " " + c.foundAt() + "\n" + c.yaml());
        }
        for (var c : explore(ForgetfulRestartLoop::new, "two", Explorer.Settings.DEFAULTS).counterexamples()) {
            System.out.println(c.invariant() + " " + c.plan() + " " + c.foundIn() + " " + c.foundAt() + "\n" + c.yaml());
        }
        long t0 = System.nanoTime();
        var r = explore(LoopFactory.builtin(), "two", Explorer.Settings.DEFAULTS.withMaxPlans(20000));
        long t1 = System.nanoTime();
        System.out.println("builtin: " + r.plans() + " plans in " + (t1 - t0) / 1e6 + " ms; " + r.ended());
        for (var c : r.counterexamples()) {
            System.out.println(c.invariant() + " " + c.plan() + " " + c.foundIn() + " " + c.foundAt() + "\n" + c.yaml());
        }
    }
}
