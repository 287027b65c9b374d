package dev.resilienceharness.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.resilienceharness.config.HarnessConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardInputsTest {

    @TempDir
    Path dir;

    @Test
    void twoCheckoutsInOtherFoldersHaveTheSameInputs() throws Exception {
        HarnessConfig a = ShardedRun.load(ShardedRun.corpus(dir.resolve("runner-1/work")));
        HarnessConfig b = ShardedRun.load(ShardedRun.corpus(dir.resolve("elsewhere")));
        assertEquals(ShardInputs.digest(a, "runs=2"), ShardInputs.digest(b, "runs=2"));
        assertEquals(64, ShardInputs.digest(a, "runs=2").length());
    }

    @Test
    void aChangedYamlCassetteBaselineOrOptionChangesThem() throws Exception {
        Path yaml = ShardedRun.corpus(dir);
        HarnessConfig config = ShardedRun.load(yaml);
        String before = ShardInputs.digest(config, "runs=2");
        assertNotEquals(before, ShardInputs.digest(config, "runs=3"));

        Path cassette = config.cassettes().resolve("12ef5d31bdb89522.json");
        String text = Files.readString(cassette);
        Files.writeString(cassette, text.replace("12", "13"));
        assertNotEquals(before, ShardInputs.digest(config, "runs=2"));
        Files.writeString(cassette, text);
        assertEquals(before, ShardInputs.digest(config, "runs=2"));

        Files.writeString(config.cassettes().resolve("extra.json"), "{}");
        assertNotEquals(before, ShardInputs.digest(config, "runs=2"));
        Files.delete(config.cassettes().resolve("extra.json"));

        Files.writeString(yaml, Files.readString(yaml) + "\n");
        assertNotEquals(before, ShardInputs.digest(ShardedRun.load(yaml), "runs=2"));
    }

    @Test
    void theBaselineCounts() throws Exception {
        Path yaml = ShardedRun.corpus(dir);
        Files.writeString(yaml, Files.readString(yaml).replace("version: 1\n",
                "version: 1\nredaction:\n  baseline: secrets-baseline.json\n"));
        HarnessConfig config = ShardedRun.load(yaml);
        String without = ShardInputs.digest(config, "");
        Files.writeString(dir.resolve("secrets-baseline.json"), "{\"fingerprints\": []}");
        assertNotEquals(without, ShardInputs.digest(config, ""));
    }
}
