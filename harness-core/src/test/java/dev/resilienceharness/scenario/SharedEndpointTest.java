package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.report.ReportJson;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.trace.CallRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Scenarios sharing one rate-limited endpoint, interleaved by virtual time, each checked on its own. */
class SharedEndpointTest {

    private static final List<String> OPS = List.of("plan", "patch", "test");

    @TempDir
    Path dir;

    /** {@code n} scenarios of three ops each, every answer 100 + 50 tokens, with {@code limits} at top level. */
    private HarnessConfig project(int n, String limits) throws Exception {
        StringBuilder yaml = new StringBuilder("""
                version: 1
                policy: {max_total_wait: 5m}
                %s
                scenarios:
                """.formatted(limits));
        for (int i = 0; i < n; i++) {
            yaml.append("  - {name: s").append(i).append(", ops: [plan, patch, test]}\n");
        }
        Files.writeString(dir.resolve("resilience.yaml"), yaml, StandardCharsets.UTF_8);
        CassetteStore store = CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of()));
        for (String op : OPS) {
            ObjectNode response = JsonNodeFactory.instance.objectNode().put("done", op);
            response.putObject("usage").put("prompt_tokens", 100).put("completion_tokens", 50);
            store.write(JsonNodeFactory.instance.objectNode().put("op", op), response, null);
        }
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    private static List<ScenarioResult> checkAll(HarnessConfig config) throws Exception {
        Rehearsal rehearsal = Rehearsal.prepare(config, LoopFactory.builtin());
        // Checked from several threads at once, as the goals do: each pool still runs once per run number.
        return config.scenarios().parallelStream()
                .map(s -> rehearsal.check(s, 2, Rehearsal.RUN_INVARIANTS)).toList();
    }

    private static String report(List<ScenarioResult> results) {
        RunReport.Builder b = RunReport.builder();
        results.forEach(r -> b.scenario(ScenarioReport.of(r)));
        return ReportJson.write(b.build());
    }

    @Test
    void theBuiltinLoopPassesFiftyScenariosSharingSixtyRequestsAndTenThousandTokensAMinute() throws Exception {
        HarnessConfig config = project(50, "provider_limits: {requests_per_minute: 60, tokens_per_minute: 10000,"
                + " shared: true}");
        List<ScenarioResult> results = checkAll(config);
        assertEquals(List.of(), results.stream().flatMap(r -> r.violations().stream()).map(v -> v.line()).toList());
        assertTrue(results.stream().allMatch(r -> r.trace().outcomes().size() == 3
                && r.trace().outcomes().stream().allMatch(o -> o.status() == Status.OK)));
        // 150 calls through one endpoint of 60 a minute: the calls of a minute are never more than 60.
        List<Long> minutes = results.stream().flatMap(r -> r.trace().calls().stream())
                .filter(c -> c.result() == CallRecord.Result.OK).map(c -> c.atNanos() / 60_000_000_000L).toList();
        assertEquals(List.of(60L, 60L, 30L), IntStream.range(0, 3)
                .mapToObj(m -> minutes.stream().filter(x -> x == m).count()).toList());
        long refused = results.stream().flatMap(r -> r.trace().calls().stream())
                .filter(c -> CallRecord.RATE_LIMIT.equals(c.limit())).count();
        assertTrue(refused > 0);
        // Ties at one instant go by yaml order: s0 to s19 got through at once; later ones waited out the window.
        assertEquals(0, results.get(0).trace().totalWait().toMillis());
        assertTrue(results.get(49).trace().totalWait().toMillis() >= 60_000);
    }

    @Test
    void theSameSharedRunEveryTime() throws Exception {
        HarnessConfig config = project(12, "provider_limits: {requests_per_minute: 10, tokens_per_minute: 2000,"
                + " shared: true}");
        assertEquals(report(checkAll(config)), report(checkAll(config)));
    }

    @Test
    void withoutSharingEachScenarioHasAnEndpointOfItsOwn() throws Exception {
        HarnessConfig config = project(5, "provider_limits: {requests_per_minute: 3}");
        List<ScenarioResult> results = checkAll(config);
        assertTrue(results.stream().flatMap(r -> r.trace().calls().stream()).allMatch(c -> c.limit() == null));
    }

    @Test
    void aSharedQuotaIsSpentByAllAndEachScenarioIsCheckedOnItsOwn() throws Exception {
        // 4 scenarios of 3 ops at 150 tokens: the quota of 1000 lets 7 calls through (the 7th crosses it).
        HarnessConfig config = project(4, "provider_limits: {token_quota: 1000, shared: quota-pool}");
        List<ScenarioResult> results = checkAll(config);
        String statuses = results.stream().map(r -> r.trace().outcomes().stream()
                .map(o -> o.status().name().toLowerCase()).collect(Collectors.joining(","))).collect(
                        Collectors.joining(" | "));
        // In virtual time every call comes at 0; ties go by yaml order, so s0 and s1 spend 900, s2's plan crosses the
        // quota and its patch is refused, and s3 gets nothing.
        assertEquals("ok,ok,ok | ok,ok,ok | ok,stopped | stopped", statuses);
        assertEquals(List.of(), results.stream().flatMap(r -> r.violations().stream()).map(v -> v.line()).toList());
    }

    @Test
    void aScenarioNotAsWrittenRunsAlone() throws Exception {
        HarnessConfig config = project(3, "provider_limits: {requests_per_minute: 2, shared: true}");
        Rehearsal rehearsal = Rehearsal.prepare(config, LoopFactory.builtin());
        Scenario changed = config.scenarios().get(0).withFaults(List.of());
        assertEquals(3, rehearsal.run(changed, null).calls().stream().filter(c -> c.limit() == null).count());
        List<String> refusedOwn = new ArrayList<>();
        rehearsal.check(changed, 1, Rehearsal.RUN_INVARIANTS).trace().calls().forEach(c -> refusedOwn.add(
                String.valueOf(c.limit())));
        assertEquals(List.of("null", "null", "rate_limit", "null"), refusedOwn);
    }
}
