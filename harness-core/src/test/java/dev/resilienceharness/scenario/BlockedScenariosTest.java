package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.VolatilePaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockedScenariosTest {

    @TempDir
    Path dir;

    HarnessConfig config() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: cassettes
                policy: {max_total_wait: 1s}
                requests:
                  patch: {op: patch}
                  patch-again: {op: patch}
                scenarios:
                  - {name: plans, ops: [plan]}
                  - {name: patches, ops: [plan, patch]}
                  - {name: patches-again, ops: [patch-again]}
                  - {name: reviews, ops: [review]}
                """);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    static Violation broken(String file, String op) {
        return new Violation(Invariant.CASSETTES, file, op, null, null, "is empty", "Fix the file");
    }

    @Test
    void everyScenarioThatNeedsTheBadFileIsBlockedAndTheOthersRun() throws Exception {
        HarnessConfig config = config();
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        Path patchFile = store.fileFor(store.fingerprint(config.request("patch")));
        BlockedScenarios.Split split = BlockedScenarios.split(config, List.of(broken(patchFile.toString(), "patch")));
        assertEquals(List.of("plans", "reviews"), split.runnable().scenarios().stream().map(Scenario::name).toList());
        assertEquals(List.of(
                "Scenario 'patches' was not run: op 'patch' needs " + patchFile
                        + ", which has a cassette violation below",
                "Scenario 'patches-again' was not run: op 'patch-again' needs " + patchFile
                        + ", which has a cassette violation below"), split.blocked(),
                "an op that sends the same request needs the same file");
    }

    @Test
    void violationsWithoutAnOpBlockNothing() throws Exception {
        HarnessConfig config = config();
        BlockedScenarios.Split split = BlockedScenarios.split(config, List.of(broken("/x/orphan.json", null)));
        assertSame(config, split.runnable());
        assertEquals(List.of(), split.blocked());
    }

    @Test
    void aMissingCassetteBlocksItsScenarios() throws Exception {
        HarnessConfig config = config();
        BlockedScenarios.Split split = BlockedScenarios.split(config, List.of(new Violation(Invariant.CASSETTES,
                config.file() + ":12", "plan", null, null, "no cassette", "Run mvn resilience:record")));
        assertEquals(List.of("patches-again", "reviews"), split.runnable().scenarios().stream().map(Scenario::name)
                .toList());
        assertEquals(2, split.blocked().size());
    }
}
