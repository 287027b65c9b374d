package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.json.CanonicalJson;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Both test corpora: running each corpus's {@code resilience.yaml} with the built-in loop reproduces its
 * {@code expected.json} exactly: outcomes (volatile value keys removed), calls, call budget and total wait.
 */
class CorpusTest {

    @TestFactory
    Stream<DynamicTest> plain() throws Exception {
        return corpus("plain");
    }

    @TestFactory
    Stream<DynamicTest> mixed() throws Exception {
        return corpus("mixed");
    }

    private Stream<DynamicTest> corpus(String name) throws Exception {
        Path dir = Path.of(getClass().getResource("/corpora/" + name + "/resilience.yaml").toURI()).getParent();
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        JsonNode expected = Json.readTree(Files.readAllBytes(dir.resolve("expected.json")));
        Rehearsal rehearsal = Rehearsal.prepare(config, LoopFactory.builtin());
        assertEquals(expected.size(), config.scenarios().size());
        List<DynamicTest> tests = new ArrayList<>();
        for (Scenario s : config.scenarios()) {
            tests.add(DynamicTest.dynamicTest(name + "/" + s.name(), () -> {
                JsonNode want = expected.get(s.name());
                ScenarioResult result = rehearsal.check(s, 1, Rehearsal.RUN_INVARIANTS);
                assertEquals(CanonicalJson.write(stripVolatile(want.get("outcomes"))),
                        CanonicalJson.write(stripVolatile(outcomes(result.trace().outcomes()))), "outcomes");
                assertEquals(want.get("calls").asInt(), result.calls(), "calls");
                assertEquals(want.get("call_budget").asInt(), result.callBudget(), "call_budget");
                assertEquals(want.get("total_wait_ms").asDouble(), result.trace().totalWaitMs(), 0.5,
                        "total_wait_ms");
                assertEquals(List.of(), result.violations(), "a sound built-in loop breaks no invariant");
            }));
        }
        return tests.stream();
    }

    static ArrayNode outcomes(List<Outcome> outcomes) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        outcomes.forEach(o -> list.add(o.toJson()));
        return list;
    }

    /** Key order matters too: compare each record's keys as a list before canonicalising. */
    static ArrayNode stripVolatile(JsonNode outcomes) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (JsonNode o : outcomes) {
            ObjectNode copy = ((ObjectNode) o).deepCopy();
            JsonNode value = copy.get("value");
            if (value instanceof ObjectNode v) {
                v.remove(List.of("id", "created", "system_fingerprint"));
            }
            ArrayNode keys = copy.putArray("__keys");
            o.propertyNames().forEach(keys::add);
            out.add(copy);
        }
        return out;
    }
}
