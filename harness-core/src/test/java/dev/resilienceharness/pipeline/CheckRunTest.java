package dev.resilienceharness.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.run.RunError;
import dev.resilienceharness.run.RunLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckRunTest {

    /** A log that keeps nothing. */
    static final RunLog QUIET = new RunLog() {
        @Override
        public boolean isDebugEnabled() {
            return false;
        }

        @Override
        public void debug(String line) {
        }

        @Override
        public void info(String line) {
        }

        @Override
        public void warn(String line) {
        }

        @Override
        public void error(String line) {
        }
    };

    /**
     * The pass takes the digest the record remembers from the bytes it reads, unless nothing is remembered or Maven's
     * JVM took it already (of the very folder and baseline this yaml names).
     */
    @Test
    void the_pass_takes_the_digest_unless_nothing_is_remembered_or_it_was_taken_already(@TempDir Path dir)
            throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, "version: 1\npolicy:\n  max_total_wait: 30s\n");
        Files.createDirectories(dir.resolve("cassettes"));
        Files.writeString(dir.resolve("cassettes/0123456789abcdef.json"), "{}");
        HarnessConfig config = ConfigLoader.load(yaml);
        List<Path> told = new ArrayList<>();
        CheckRun.Pass stop = (c, digest) -> {
            told.add(digest == null ? null : digest.cassettes());
            throw new RunError("stopped here");
        };

        // nothing remembered, so no digest
        pass(options(yaml, null, null, null), config, stop);
        // remembered, with no record before: the pass takes it, of the folder this yaml names
        pass(options(yaml, "identity", null, null), config, stop);
        // remembered, and Maven's JVM took the digest of the files the last record names before this JVM started
        pass(options(yaml, "identity", config.cassettes(), "0123abcd"), config, stop);
        // ... of other files than this yaml names: the pass takes it
        pass(options(yaml, "identity", dir.resolve("elsewhere"), "0123abcd"), config, stop);

        assertEquals(Arrays.asList(null, config.cassettes(), null, config.cassettes()), told);
    }

    private static CheckRun.Options options(Path yaml, String identity, Path earlierCassettes,
            String earlierInputsNow) {
        return new CheckRun.Options(yaml, yaml.resolveSibling("target/check-record.json"), false, true, false,
                identity, earlierCassettes, null, earlierInputsNow);
    }

    private static void pass(CheckRun.Options options, HarnessConfig config, CheckRun.Pass pass) {
        RunError e = assertThrows(RunError.class,
                () -> CheckRun.run(QUIET, options, config, false, pass));
        assertEquals("stopped here", e.getMessage());
    }
}
