package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.scenario.ScenarioResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxyRunsTest {

    @TempDir
    Path dir;

    HarnessConfig config() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: cassettes
                policy: {max_total_wait: 1s}
                scenarios:
                  - {name: slow, ops: [plan], faults: [timeout]}
                """);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    @Test
    void withoutAScenarioTheRunHasNoFaultsAndTheTopLevelPolicy() throws Exception {
        HarnessConfig config = config();
        ProxyRuns runs = new ProxyRuns(config, null);
        assertEquals(ProxyRuns.UNPLANNED, runs.current().scenario().name());
        assertEquals(NoFault.INSTANCE, runs.current().nextFault());
        assertEquals(config.policy(), runs.current().scenario().policy());
    }

    @Test
    void aResetEndsTheRunAndStartsTheScenariosPlanAfresh() throws Exception {
        HarnessConfig config = config();
        ProxyRuns runs = new ProxyRuns(config, ProxyRuns.find(config, "slow"));
        assertEquals(TimeoutFault.INSTANCE, runs.current().nextFault());
        assertNull(runs.reset(ProxyRuns.find(config, "slow")), "a run that saw no request is not kept");
        assertEquals(TimeoutFault.INSTANCE, runs.current().nextFault(), "the plan starts again");
        runs.current().call("plan", TimeoutFault.INSTANCE, ProxyRunTest.FAILED, null, System.nanoTime());
        ScenarioResult ended = runs.reset(null);
        assertEquals("slow", ended.scenario().name());
        assertEquals(1, ended.calls());
        assertNull(ProxyRuns.find(config, "nope"));
    }

    @Test
    void stoppingWritesTheReportOfEveryRunThatSawARequest() throws Exception {
        HarnessConfig config = config();
        ProxyRuns runs = new ProxyRuns(config, null);
        Path out = dir.resolve("out");
        assertTrue(runs.stop(out).isEmpty());
        assertFalse(Files.exists(out.resolve("report.json")), "nothing served, nothing written");
        runs.current().call("plan", NoFault.INSTANCE, ProxyRunTest.OK, null, System.nanoTime());
        assertEquals(1, runs.stop(out).size());
        assertEquals("serve", Json.readTree(Files.readString(out.resolve("report.json"))).at("/scenarios/0/name")
                .asString());
    }
}
