package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.testing.ScenarioRuns;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class LimitSearchTest {

    @TempDir
    Path dir;

    private HarnessConfig project() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                policy: {max_total_wait: 5m}
                scenarios:
                  - name: s
                    ops: [a, b, c, d, e]
                """, StandardCharsets.UTF_8);
        CassetteStore store = CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of()));
        for (String op : List.of("a", "b", "c", "d", "e")) {
            ObjectNode response = JsonNodeFactory.instance.objectNode().put("done", op);
            response.putObject("usage").put("prompt_tokens", 100).put("completion_tokens", 50);
            store.write(JsonNodeFactory.instance.objectNode().put("op", op), response, null);
        }
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    /** Retries any failure at once, up to three calls per op, then degrades. */
    private static AgentLoop impatient() {
        return ScenarioRuns.retryUntilAnswered(3);
    }

    @Test
    void findsTheHighestRequestRateAnImpatientLoopBreaksUnder() throws Exception {
        HarnessConfig config = project();
        LimitSearch search = new LimitSearch(Rehearsal.prepare(config, LimitSearchTest::impatient));
        Optional<LimitSearch.Finding> found = search.highestRequestsPerMinute(config.scenarios().get(0));
        assertEquals(4L, found.orElseThrow().value());
        assertEquals(1, found.get().tried());
        assertEquals("s", found.get().scenario());
        assertEquals("explore-s-requests-per-minute-4", found.get().name());
        String yaml = found.get().yaml();
        assertEquals("  - name: explore-s-requests-per-minute-4", yaml.lines().filter(l -> l.startsWith("  - "))
                .findFirst().orElseThrow());
        assertEquals("    provider_limits: {requests_per_minute: 4}", yaml.lines().reduce((a, b) -> b).orElseThrow());
    }

    @Test
    void findsTheSmallestQuotaAnImpatientLoopBreaksUnder() throws Exception {
        HarnessConfig config = project();
        LimitSearch search = new LimitSearch(Rehearsal.prepare(config, LimitSearchTest::impatient));
        LimitSearch.Finding found = search.smallestTokenQuota(config.scenarios().get(0)).orElseThrow();
        assertEquals(150L, found.value());
        assertEquals("budget", found.violations().get(0).invariant().id());
    }

    @Test
    void theBuiltinLoopBreaksUnderNoLimitValue() throws Exception {
        HarnessConfig config = project();
        LimitSearch search = new LimitSearch(Rehearsal.prepare(config, LoopFactory.builtin()));
        assertEquals(Optional.empty(), search.highestRequestsPerMinute(config.scenarios().get(0)));
        assertEquals(Optional.empty(), search.smallestTokenQuota(config.scenarios().get(0)));
    }

    @Test
    void faultPlansAreExploredUnderTheScenariosLimitsAndTheCaseKeepsThem() throws Exception {
        HarnessConfig plain = project();
        Files.writeString(dir.resolve("resilience.yaml"), Files.readString(dir.resolve("resilience.yaml"))
                + "    provider_limits: {requests_per_minute: 4}\n");
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        Explorer.Settings settings = Explorer.Settings.DEFAULTS.withMaxPlans(1).withMaxCounterexamples(1);
        // The built-in loop with no faults: under 4 requests a minute it waits a window out, and passes.
        ExplorationResult limited = new Explorer(Rehearsal.prepare(config, LoopFactory.builtin()))
                .explore(config.scenarios().get(0), settings);
        assertEquals(List.of(), limited.counterexamples());
        // The impatient loop retries the window's 429 at once: the empty plan already breaks it, under the limits.
        ExplorationResult broken = new Explorer(Rehearsal.prepare(config, LimitSearchTest::impatient))
                .explore(config.scenarios().get(0), settings);
        Counterexample c = broken.counterexamples().get(0);
        assertEquals(List.of(), c.plan());
        assertEquals("    provider_limits: {requests_per_minute: 4, shared: false}",
                c.yaml().lines().reduce((a, b) -> b).orElseThrow());
        ExplorationResult unlimited = new Explorer(Rehearsal.prepare(plain, LimitSearchTest::impatient))
                .explore(plain.scenarios().get(0), settings);
        assertEquals(List.of(), unlimited.counterexamples());
    }
}
