package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunReportTest {

    static final SecretFindingRow FINDING = new SecretFindingRow("cassettes/a.json", 3, 9, "$.request.api_key",
            "openai-key", "sk-p****", "0123456789abcdef");

    @Test
    void parts_not_given_are_empty() {
        RunReport r = RunReport.builder().build();
        assertEquals(List.of(), r.scenarios());
        assertEquals(0, r.cassettes().checked());
        assertEquals(0, r.secrets().files());
        assertFalse(r.exploration().ran());
        assertTrue(r.passed());
        assertEquals(0, r.violationCount());
    }

    @Test
    void counts_every_invariant_in_report_order_with_secrets_as_findings() {
        Violation budget = ReportFixtures.budgetViolation("a", "plan");
        Violation expect = new Violation(Invariant.EXPECTATIONS, "a", "plan", null, null, "expect differs", null);
        Violation cassette = new Violation(Invariant.CASSETTES, "cassettes/x.json", null, null, null, "bad", null);
        RunReport r = RunReport.builder()
                .scenario(ReportFixtures.handmade("a", "plan", List.of(budget, budget, expect)))
                .scenario(ReportFixtures.handmade("b", "plan", List.of()))
                .cassettes(new CassetteIntegrity.Report(4, List.of(cassette), List.of("orphan")))
                .secrets(4, List.of(FINDING, FINDING))
                .build();
        Map<Invariant, Integer> counts = r.violationsByInvariant();
        assertEquals(List.of(Invariant.values()), new ArrayList<>(counts.keySet()));
        assertEquals(List.of(2, 0, 0, 0, 1, 1, 2, 0), new ArrayList<>(counts.values()));
        assertEquals(6, r.violationCount());
        assertFalse(r.passed());
        assertEquals(List.of("a"), r.failingScenarios().stream().map(ScenarioReport::name).toList());
        assertEquals(List.of("orphan"), r.cassettes().warnings());
    }

    @Test
    void exploration_ran_only_when_plans_were_explored() {
        assertTrue(RunReport.builder().exploration(12, List.of()).build().exploration().ran());
        assertFalse(RunReport.builder().exploration(0, List.of()).build().exploration().ran());
    }

    @Test
    void lists_are_copied() {
        List<SecretFindingRow> findings = new ArrayList<>(List.of(FINDING));
        RunReport r = RunReport.builder().secrets(1, findings).build();
        findings.clear();
        assertEquals(1, r.secrets().findings().size());
    }
}
