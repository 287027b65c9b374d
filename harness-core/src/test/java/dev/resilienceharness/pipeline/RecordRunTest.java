package dev.resilienceharness.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.run.RunError;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordRunTest {

    /** A variable no environment sets. */
    private static final String UNSET = "RESILIENCE_RECORD_RUN_TEST_UNSET_KEY";

    @TempDir
    Path dir;

    private HarnessConfig config(String file, String loop, boolean provider) throws Exception {
        String yaml = "version: 1\npolicy: {max_total_wait: 30s}\n"
                + (loop == null ? "" : "loop: " + loop + "\n")
                + "requests:\n"
                + "  plan: {model: m, messages: [{role: user, content: plan the fix}]}\n"
                + "scenarios:\n"
                + "  - name: happy\n"
                + "    ops: [plan]\n"
                + (provider ? "provider:\n  base_url: http://127.0.0.1:9/v1\n  api_key_env: " + UNSET + "\n" : "");
        Path path = dir.resolve(file);
        Files.writeString(path, yaml, StandardCharsets.UTF_8);
        return ConfigLoader.load(path);
    }

    @Test
    void aMissingKeyNamesTheConfigFileInUse() throws Exception {
        assertNull(System.getenv(UNSET));
        for (String loop : new String[] {null, "com.acme.McpAgent"}) {
            RunError e = assertThrows(RunError.class, () -> RecordRun.run(CheckRunTest.QUIET,
                    config("mcp.yaml", loop, true), "record-missing", "1", null));
            assertEquals("set " + UNSET + " to the provider's API key (mcp.yaml's provider.api_key_env names it); it"
                    + " is read from the environment, sent as a Bearer token and never written anywhere",
                    e.getMessage(), "loop " + loop);
        }
        RunError e = assertThrows(RunError.class, () -> RecordRun.run(CheckRunTest.QUIET,
                config("resilience.yaml", null, true), "record-missing", "1", null));
        assertEquals("set " + UNSET + " to the provider's API key (resilience.yaml's provider.api_key_env names it);"
                + " it is read from the environment, sent as a Bearer token and never written anywhere",
                e.getMessage());
    }

    @Test
    void noProviderSectionNamesTheConfigFileInUse() throws Exception {
        HarnessConfig config = config("mcp.yaml", null, false);
        RunError e = assertThrows(RunError.class, () -> RecordRun.run(CheckRunTest.QUIET, config, "record-missing",
                "1", null));
        assertEquals(config.file() + ": mcp.yaml has no provider section: add provider.base_url and"
                + " provider.api_key_env to mcp.yaml", e.getMessage());
    }
}
