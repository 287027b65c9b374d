package dev.resilienceharness.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class AggregateReportTest {

    @org.junit.jupiter.api.io.TempDir
    Path dir;

    private static final Path ROOT = Path.of("/build/shop");

    @Test
    void everyModulesScenariosAreOnOnePageUnderTheModulesName() throws Exception {
        List<ScenarioReport> plain = ReportFixtures.corpus("plain");
        List<ScenarioReport> failing = ReportFixtures.failing(dir);
        RunReport a = RunReport.builder().scenarios(plain).cassettes(3, List.of(), List.of("an orphan")).build();
        RunReport b = RunReport.builder().scenarios(failing).cassettes(2, List.of(), List.of())
                .secrets(2, List.of(new SecretFindingRow("cassettes/c.json", 3, 9, "$.x", "openai-key", "sk-p****",
                        "a5bd6b249a2c7f72"))).build();
        RunReport all = AggregateReport.of(List.of(new AggregateReport.Module("api", ROOT.resolve("api"), a),
                new AggregateReport.Module("agent", ROOT.resolve("agent"), b)), ROOT);

        assertEquals(plain.size() + failing.size(), all.scenarios().size());
        assertEquals("api/" + plain.get(0).name(), all.scenarios().get(0).name());
        assertEquals("agent/" + failing.get(0).name(), all.scenarios().get(plain.size()).name());
        assertEquals(5, all.cassettes().checked());
        assertEquals(List.of("api: an orphan"), all.cassettes().warnings());
        assertEquals("agent/cassettes/c.json", all.secrets().findings().get(0).file());
        assertEquals(a.violationCount() + b.violationCount(), all.violationCount());
        for (ScenarioReport s : all.scenarios().subList(plain.size(), all.scenarios().size())) {
            for (Violation v : s.violations()) {
                assertEquals(s.name(), v.subject(), "a violation names the scenario as the page does");
            }
        }
        assertEquals(b.violationsByInvariant().get(Invariant.BUDGET), all.violationsByInvariant().get(Invariant.BUDGET));
    }
}
