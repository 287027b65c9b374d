package dev.resilienceharness.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.cassette.ToolRecordings;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.run.RunFailure;
import dev.resilienceharness.run.RunLog;
import dev.resilienceharness.shard.Shard;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** verify-cassettes on a folder with tool recordings ({@code replay: recorded}). */
class CassetteRunTest {

    private static final String YAML = """
            version: 1
            policy: {max_total_wait: 15s}
            tools:
              refund: {side_effects: true, replay: recorded}
            scenarios:
              - {name: plan-only, ops: [plan]}
            """;

    @TempDir
    Path dir;

    /** Every line logged, as {@code LEVEL text}, the temporary folder shown as {@code D}. */
    private final List<String> lines = new ArrayList<>();

    private final RunLog log = new RunLog() {
        @Override
        public boolean isDebugEnabled() {
            return false;
        }

        @Override
        public void debug(String line) {
        }

        @Override
        public void info(String line) {
            lines.add("INFO " + line.replace(dir.toString(), "D"));
        }

        @Override
        public void warn(String line) {
            lines.add("WARNING " + line.replace(dir.toString(), "D"));
        }

        @Override
        public void error(String line) {
            lines.add("ERROR " + line.replace(dir.toString(), "D"));
        }
    };

    @Test
    void a_sound_tool_recording_passes_and_a_corrupt_one_fails_the_goal_naming_its_file() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        ToolRecordings.recording(config.cassettes(), c -> c, null).write("refund",
                Json.readTree("{\"order\":\"A1\"}"), "{\"refund_id\":\"r-1\"}");

        CassetteRun.verify(log, config, Shard.WHOLE, true, true, false);
        assertEquals(List.of("INFO Checked 2 cassettes in " + config.cassettes().toString().replace(dir.toString(),
                "D")), lines);

        lines.clear();
        Files.writeString(config.cassettes().resolve("tools/0123456789abcdef.json"), "{\"tool\": \"refund\"}");
        RunFailure failure = assertThrows(RunFailure.class,
                () -> CassetteRun.verify(log, config, Shard.WHOLE, true, true, false));
        assertEquals("resilience:verify-cassettes: 1 violation (cassettes 1)", failure.getMessage());
        assertEquals(List.of("INFO Checked 3 cassettes in D/cassettes",
                "ERROR D/cassettes/tools/0123456789abcdef.json [cassettes]: has no \"arguments\"; a tool recording is"
                        + " {\"tool\": \"...\", \"arguments\": ..., \"result\": \"...\"}. Fix the file, or delete it"
                        + " and run mvn resilience:record"), lines);
    }
}
