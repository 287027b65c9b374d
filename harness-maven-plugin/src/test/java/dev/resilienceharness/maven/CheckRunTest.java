package dev.resilienceharness.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckRunTest {

    /**
     * A digest taken in the check's JVM after its yaml was loaded covers files a listing taken while the yaml was read
     * could miss: the pass is told so, and lists the folder again.
     */
    @Test
    void the_pass_is_told_whether_the_digest_was_taken_after_the_yaml_was_loaded(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, "version: 1\npolicy:\n  max_total_wait: 30s\n");
        Files.createDirectories(dir.resolve("cassettes"));
        Files.writeString(dir.resolve("cassettes/0123456789abcdef.json"), "{}");
        HarnessConfig config = ConfigLoader.load(yaml);
        List<Boolean> told = new ArrayList<>();
        CheckRun.Pass stop = (c, digestTaken) -> {
            told.add(digestTaken);
            throw new MojoExecutionException("stopped here");
        };

        // nothing remembered, so no digest
        pass(options(yaml, null, null, null), config, stop);
        // remembered, with no record before: the digest is taken here, after the yaml
        pass(options(yaml, "identity", null, null), config, stop);
        // remembered, and Maven's JVM took the digest of the files the last record names before this JVM started
        pass(options(yaml, "identity", config.cassettes(), "0123abcd"), config, stop);
        // ... of other files than this yaml names: taken here again
        pass(options(yaml, "identity", dir.resolve("elsewhere"), "0123abcd"), config, stop);

        assertEquals(List.of(false, true, false, true), told);
    }

    private static CheckRun.Options options(Path yaml, String identity, Path earlierCassettes,
            String earlierInputsNow) {
        return new CheckRun.Options(yaml, yaml.resolveSibling("target/check-record.json"), false, true, false,
                identity, earlierCassettes, null, earlierInputsNow);
    }

    private static void pass(CheckRun.Options options, HarnessConfig config, CheckRun.Pass pass) {
        MojoExecutionException e = assertThrows(MojoExecutionException.class,
                () -> CheckRun.run(new SystemStreamLog(), options, config, false, pass));
        assertEquals("stopped here", e.getMessage());
    }
}
