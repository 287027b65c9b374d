package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.testing.TestProject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioResultTest {

    @TempDir
    Path dir;

    private ScenarioResult check(String maxTotalWait, String faults) throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: %s, max_attempts: 3}
                scenarios:
                  - name: s
                    ops: [plan, patch]
                    faults: %s
                """.formatted(maxTotalWait, faults), "plan", "patch");
        return Rehearsal.prepare(config, LoopFactory.builtin()).check(scenario(config, "s"), 2, Rehearsal.RUN_INVARIANTS);
    }

    @Test
    void shows_the_calls_made_and_the_call_budget_of_the_ops_called() throws Exception {
        ScenarioResult result = check("30s", "[timeout, none, timeout, timeout, timeout]");
        assertEquals(5, result.calls());
        assertEquals(5, result.trace().calls().size());
        assertEquals(2 + 3, result.callBudget());
        assertEquals("s", result.scenario().name());
    }

    @Test
    void shows_the_wait_bound_in_milliseconds_fractions_kept() throws Exception {
        assertEquals(30_000.0, check("30s", "[]").waitBoundMs());
        assertEquals(0.5, check("0.0005", "[]").waitBoundMs());
    }

    @Test
    void keeps_its_violations_fixed() throws Exception {
        ScenarioResult ok = check("30s", "[]");
        List<Violation> violations = new ArrayList<>(List.of(new Violation(Invariant.BUDGET, "s", null, null, null,
                "m", null)));
        ScenarioResult result = new ScenarioResult(ok.scenario(), ok.trace(), 2, violations);
        violations.clear();
        assertEquals(1, result.violations().size());
        assertThrows(UnsupportedOperationException.class, () -> result.violations().clear());
        assertSame(ok.trace(), result.trace());
    }
}
