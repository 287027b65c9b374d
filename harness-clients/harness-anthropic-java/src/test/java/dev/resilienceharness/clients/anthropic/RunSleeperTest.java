package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.scenario.ScenarioResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SDK's sleeper on the run's virtual clock. */
class RunSleeperTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.anthropic.FixLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - name: waits
                ops: [plan]
            """;

    @TempDir
    Path dir;

    @Test
    void bothWaitsAreTheRunsAndMarkedAsTheSdks() {
        List<Instant> seen = new ArrayList<>();
        Rehearsals r = Rehearsals.of(dir, YAML, "cassettes", run -> {
            RunSleeper sleeper = new RunSleeper(run.http());
            sleeper.sleep(Duration.ofSeconds(3));
            seen.add(run.now());
            assertTrue(sleeper.sleepAsync(Duration.ofSeconds(2)).isDone(), "the virtual wait is over at once");
            seen.add(run.now());
            return List.of();
        });

        ScenarioResult result = r.check("waits");

        assertEquals(List.of(VirtualClock.EPOCH.plusSeconds(3), VirtualClock.EPOCH.plusSeconds(5)), seen.subList(0, 2));
        List<VirtualClock.Wait> waits = result.trace().waits();
        assertEquals(List.of(Duration.ofSeconds(3).toNanos(), Duration.ofSeconds(2).toNanos()),
                waits.stream().map(VirtualClock.Wait::nanos).toList());
        waits.forEach(w -> assertEquals("anthropic-java 3.16.0", w.by()));
        assertEquals(Duration.ofSeconds(5), result.trace().totalWait());
        assertEquals(List.of(), result.trace().realSleeps());
    }
}
