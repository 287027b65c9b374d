package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.invariant.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ScenarioReportTest {

    @Test
    void withoutOutcomesKeepsEverythingButTheOutcomes() {
        Violation v = ReportFixtures.budgetViolation("s", "plan");
        ScenarioReport full = ReportFixtures.handmade("s", "plan", List.of(v));
        assertFalse(full.outcomes().isEmpty());

        ScenarioReport lean = full.withoutOutcomes();

        assertTrue(lean.outcomes().isEmpty());
        assertEquals("s", lean.name());
        assertEquals(full.calls(), lean.calls());
        assertEquals(full.callBudget(), lean.callBudget());
        assertEquals(full.totalWaitMs(), lean.totalWaitMs());
        assertEquals(full.waitBoundMs(), lean.waitBoundMs());
        assertEquals(List.of(v), lean.violations());
        assertEquals(full.timeline(), lean.timeline());
        assertEquals(full.spend(), lean.spend());
        assertFalse(full.outcomes().isEmpty(), "the original keeps its outcomes");
    }

    @Test
    void withoutOutcomesDropsTheRecordedAnswersOfCheckedScenarios() throws Exception {
        List<ScenarioReport> reports = ReportFixtures.corpus("mixed");
        boolean answers = false;
        for (ScenarioReport full : reports) {
            for (JsonNode o : full.outcomes()) {
                answers |= o.has("value") && !o.get("value").isNull();
            }
            ScenarioReport lean = full.withoutOutcomes();
            JsonNode json = lean.toJson();
            assertTrue(json.get("outcomes").isEmpty(), full.name());
            assertEquals(full.toJson().get("violations"), json.get("violations"), full.name());
            assertEquals(full.toJson().get("timeline"), json.get("timeline"), full.name());
            assertEquals(full.toJson().get("calls"), json.get("calls"), full.name());
        }
        assertTrue(answers, "the corpus's ok outcomes hold recorded answers");
    }
}
