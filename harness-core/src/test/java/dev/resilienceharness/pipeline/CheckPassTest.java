package dev.resilienceharness.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckPassTest {

    static final String YAML = """
            version: 1
            volatile: []
            policy:
              max_total_wait: 30s
            %s
            scenarios:
              - name: one
                ops: [plan]
            """;

    @Test
    void side_effects_is_checked_when_the_config_declares_tools(@TempDir Path dir) throws Exception {
        java.nio.file.Files.createDirectories(dir.resolve("plain"));
        java.nio.file.Files.createDirectories(dir.resolve("tools"));
        HarnessConfig plain = TestProject.create(dir.resolve("plain"), YAML.formatted(""), "plan");
        assertEquals(Rehearsal.RUN_INVARIANTS, Rehearsal.runInvariants(plain));
        HarnessConfig tools = TestProject.create(dir.resolve("tools"),
                YAML.formatted("tools:\n  refund: {side_effects: true}"), "plan");
        EnumSet<Invariant> expected = EnumSet.copyOf(Rehearsal.RUN_INVARIANTS);
        expected.add(Invariant.SIDE_EFFECTS);
        assertEquals(expected, Rehearsal.runInvariants(tools));
    }
}
