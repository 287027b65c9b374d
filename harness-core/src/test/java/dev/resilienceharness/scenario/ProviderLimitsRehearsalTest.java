package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.report.ReportJson;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code provider_limits} under the built-in loop and under loops that get the two 429s wrong: windows waited out on
 * the virtual clock, a spent quota that stops the run, the token budget, and the same run every time.
 */
class ProviderLimitsRehearsalTest {

    private static final List<String> OPS = List.of("a", "b", "c", "d", "e");

    @TempDir
    Path dir;

    /** Writes the yaml and a cassette per op whose answer spent 100 prompt and 50 completion tokens. */
    private HarnessConfig project(String yaml) throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), yaml, StandardCharsets.UTF_8);
        CassetteStore store = CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of()));
        for (String op : OPS) {
            ObjectNode request = JsonNodeFactory.instance.objectNode().put("op", op);
            ObjectNode response = JsonNodeFactory.instance.objectNode().put("done", op);
            response.putObject("usage").put("prompt_tokens", 100).put("completion_tokens", 50);
            store.write(request, response, null);
        }
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    private static String yaml(String limits, String budget) {
        return """
                version: 1
                policy: {max_total_wait: 5m}
                %s
                %s
                scenarios:
                  - name: s
                    ops: [a, b, c, d, e]
                """.formatted(limits, budget);
    }

    private static ScenarioResult check(HarnessConfig config, LoopFactory loops) throws Exception {
        return Rehearsal.prepare(config, loops).check(scenario(config, "s"), 2, Rehearsal.RUN_INVARIANTS);
    }

    private static List<String> outcomes(ScenarioResult r) {
        return r.trace().outcomes().stream().map(Outcome::toJson).map(Json::compact).toList();
    }

    private static List<String> calls(RunTrace trace) {
        return trace.calls().stream().map(c -> c.op() + " " + c.result() + (c.limit() == null ? "" : " " + c.limit())
                + (c.retryAfter() == null ? "" : " retry-after " + c.retryAfter()) + " @" + c.atNanos() / 1_000_000
                + "ms").toList();
    }

    private static List<String> lines(ScenarioResult r) {
        return r.violations().stream().map(v -> v.line()).toList();
    }

    private static String reportJson(ScenarioResult r) {
        return ReportJson.write(RunReport.builder().scenario(ScenarioReport.of(r)).build());
    }

    @Test
    void theBuiltinLoopWaitsOutARequestWindowAndFinishesEveryOp() throws Exception {
        HarnessConfig config = project(yaml("provider_limits: {requests_per_minute: 2}", ""));
        ScenarioResult r = check(config, LoopFactory.builtin());
        assertEquals(List.of(), lines(r));
        assertEquals(List.of("{\"op\":\"a\",\"status\":\"ok\",\"value\":{\"done\":\"a\",\"usage\":{\"prompt_tokens\":100,"
                + "\"completion_tokens\":50}},\"attempts\":1}"), outcomes(r).subList(0, 1));
        assertEquals(List.of(1, 1, 2, 1, 2), r.trace().outcomes().stream().map(Outcome::attempts).toList());
        assertEquals(List.of("a OK @0ms", "b OK @0ms", "c QUOTA rate_limit retry-after 60 @0ms", "c OK @60000ms",
                "d OK @60000ms", "e QUOTA rate_limit retry-after 60 @60000ms", "e OK @120000ms"), calls(r.trace()));
        assertEquals(List.of(60_000L, 60_000L), r.trace().waits().stream().map(w -> w.nanos() / 1_000_000).toList());
        JsonNode scenario = Json.readTree(reportJson(r)).get("scenarios").get(0);
        assertEquals(120_000.0, scenario.get("total_wait_ms").asDouble());
        assertEquals("[{\"start_ms\":0.0,\"ms\":60000.0},{\"start_ms\":60000.0,\"ms\":60000.0}]",
                Json.compact(scenario.get("timeline").get("waits")));
    }

    @Test
    void aWindowLongerThanTheRunMayWaitStopsWithTheRetryAfter() throws Exception {
        HarnessConfig config = project(yaml("provider_limits: {requests_per_minute: 2}", "")
                .replace("max_total_wait: 5m", "max_total_wait: 30s"));
        ScenarioResult r = check(config, LoopFactory.builtin());
        assertEquals("{\"op\":\"c\",\"status\":\"stopped\",\"reason\":\"quota\",\"retry_after\":\"60\",\"attempts\":1}",
                outcomes(r).get(2));
        assertEquals(3, r.trace().outcomes().size());
        assertEquals(List.of(), lines(r));
    }

    @Test
    void aSpentTokenQuotaStopsTheRunWithNoRetryAfterKeepingTheFinishedOps() throws Exception {
        // Each op spends 150 tokens: a and b fit, c crosses the quota and is still answered, d is refused.
        HarnessConfig config = project(yaml("provider_limits: {token_quota: 400}", ""));
        ScenarioResult r = check(config, LoopFactory.builtin());
        assertEquals(List.of(), lines(r));
        assertEquals(List.of("ok", "ok", "ok", "stopped"),
                r.trace().outcomes().stream().map(o -> o.status().name().toLowerCase()).toList());
        assertEquals("{\"op\":\"d\",\"status\":\"stopped\",\"reason\":\"quota\",\"retry_after\":null,\"attempts\":1}",
                outcomes(r).get(3));
        assertEquals("d QUOTA insufficient_quota @0ms", calls(r.trace()).get(3));
        assertEquals(List.of(), r.trace().waits());
    }

    @Test
    void tokensSpentOverTheScenarioBudgetAreReportedUnderBudget() throws Exception {
        HarnessConfig config = project(yaml("", "budget: {max_tokens_per_scenario: 600, max_tokens_per_op: 150}"));
        ScenarioResult r = check(config, LoopFactory.builtin());
        assertEquals(List.of("s [budget]: 750 tokens in the scenario, retries and repairs included;"
                + " budget.max_tokens_per_scenario is 600 (bound 600 tokens, actual 750 tokens). Spend fewer tokens"
                + " (fewer retries and repairs, shorter requests) or raise the budget"), lines(r));
    }

    @Test
    void retriesAndRepairsCountTowardsTheTokenBudgetOfTheirOp() throws Exception {
        HarnessConfig config = project(yaml("", "budget: {max_tokens_per_op: 200}").replace("ops: [a, b, c, d, e]",
                "ops: [a, b, c, d, e]\n    faults: [bad_tool_call]"));
        ScenarioResult r = check(config, LoopFactory.builtin());
        assertEquals(List.of("s [budget] op 'a': 300 tokens for the op, retries and repairs included;"
                + " budget.max_tokens_per_op is 200 (bound 200 tokens, actual 300 tokens). Spend fewer tokens"
                + " (fewer retries and repairs, shorter requests) or raise the budget"), lines(r));
    }

    /** Retries every 429 at once, up to five calls per op, and then stops. */
    static final class ImpatientLoop implements AgentLoop {
        @Override
        public List<Outcome> run(dev.resilienceharness.loop.LoopRun run) {
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                for (int attempt = 1; ; attempt++) {
                    try {
                        Reply reply = run.transport().call(run.request(op));
                        out.add(Outcome.ok(op, reply.body(), attempt));
                        break;
                    } catch (QuotaExhausted e) {
                        if (attempt == 5) {
                            out.add(Outcome.stopped(op, e.retryAfter(), attempt));
                            return out;
                        }
                    } catch (CallFailure e) {
                        out.add(Outcome.degraded(op, "timeout", attempt));
                        break;
                    }
                }
            }
            return out;
        }
    }

    @Test
    void aLoopThatRetriesARateLimitAtOnceMeetsMore429sAndFails() throws Exception {
        HarnessConfig config = project(yaml("provider_limits: {requests_per_minute: 2}", ""));
        ScenarioResult r = check(config, ImpatientLoop::new);
        assertEquals(List.of("c QUOTA rate_limit retry-after 60 @0ms", "c QUOTA rate_limit retry-after 60 @0ms",
                "c QUOTA rate_limit retry-after 60 @0ms", "c QUOTA rate_limit retry-after 60 @0ms",
                "c QUOTA rate_limit retry-after 60 @0ms"), calls(r.trace()).subList(2, 7));
        assertEquals("s [budget] op 'c': retried 0 ms after a rate-limit 429 with Retry-After \"60\", which states"
                + " 60000 ms (bound at least 60000 ms, actual 0 ms). Wait the delay a rate-limit 429 states"
                + " (QuotaExhausted.delay(run.now())) with run.sleeper() before calling again; a retry at once only"
                + " meets the full window again", lines(r).get(0));
    }

    /** Takes every 429 for a transient failure: backs off and retries up to max_attempts, then degrades. */
    static final class QuotaAsTransientLoop implements AgentLoop {
        @Override
        public List<Outcome> run(dev.resilienceharness.loop.LoopRun run) {
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                for (int attempt = 1; ; attempt++) {
                    try {
                        Reply reply = run.transport().call(run.request(op));
                        out.add(Outcome.ok(op, reply.body(), attempt));
                        break;
                    } catch (CallFailure e) {
                        if (attempt == run.policy().maxAttempts()) {
                            out.add(Outcome.degraded(op, "timeout", attempt));
                            break;
                        }
                        run.sleeper().sleep(run.policy().backoff(attempt));
                    }
                }
            }
            return out;
        }
    }

    @Test
    void aLoopThatRetriesInsufficientQuotaFails() throws Exception {
        HarnessConfig config = project(yaml("provider_limits: {token_quota: 400}", ""));
        ScenarioResult r = check(config, QuotaAsTransientLoop::new);
        assertEquals("s [budget] op 'd': 5 calls after the token quota was spent (insufficient_quota at op 'd')"
                + " (bound 0 calls after insufficient_quota, actual 5 calls). Stop the run when a 429 says"
                + " insufficient_quota (QuotaExhausted.kind() INSUFFICIENT_QUOTA): no wait brings the quota back, so"
                + " keep the finished work and return it", lines(r).get(0));
        assertTrue(r.trace().calls().stream().skip(3).allMatch(c -> CallRecord.INSUFFICIENT_QUOTA.equals(c.limit())));
    }

    @Test
    void scriptedFaultsComeFirstAndOnlyCallsTheyLetThroughMeetTheLimits() throws Exception {
        HarnessConfig config = project(yaml("provider_limits: {requests_per_minute: 2}", "").replace(
                "ops: [a, b, c, d, e]", "ops: [a, b, c]\n    faults: [timeout, none, none]"));
        ScenarioResult r = check(config, LoopFactory.builtin());
        assertEquals(List.of("a TRANSIENT @0ms", "a OK @10ms", "b OK @10ms", "c QUOTA rate_limit retry-after 60 @10ms",
                "c OK @60010ms"), calls(r.trace()));
        assertEquals(List.of(), lines(r));
    }

    @Test
    void theSameYamlGivesTheSameReportTwice() throws Exception {
        HarnessConfig config = project(yaml("provider_limits: {requests_per_minute: 2, tokens_per_minute: 400,"
                + " token_quota: 700}", "budget: {max_tokens_per_scenario: 600}"));
        String first = reportJson(check(config, LoopFactory.builtin()));
        String second = reportJson(check(ConfigLoader.load(dir.resolve("resilience.yaml")), LoopFactory.builtin()));
        assertEquals(first, second);
        assertTrue(first.contains("750 tokens in the scenario"), first);
    }

    @Test
    void aRateLimitWaitCountsTowardsTheRunsWaitBound() throws Exception {
        HarnessConfig config = project(yaml("provider_limits: {requests_per_minute: 2}", ""));
        RunTrace trace = Rehearsal.prepare(config, LoopFactory.builtin()).run(scenario(config, "s"), null);
        assertEquals(Duration.ofMinutes(2), trace.totalWait());
    }

    private static dev.resilienceharness.http.HttpAttempt attempt(String op) {
        byte[] body = ("{\"op\":\"" + op + "\"}").getBytes(StandardCharsets.UTF_8);
        return new dev.resilienceharness.http.HttpAttempt("acme-sdk 1.0", "POST", "chat/completions",
                java.util.Map.of(), body, null, 0);
    }

    /** What an SDK sees of each exchange: status, the limit headers, and the error code of a 429's body. */
    private List<String> overHttp(String limits, int exchanges) throws Exception {
        HarnessConfig config = project(yaml(limits, "").replace("version: 1", "version: 1\nloop: com.acme.SdkLoop"));
        List<String> seen = new ArrayList<>();
        AgentLoop loop = run -> {
            for (int i = 0; i < exchanges; i++) {
                String op = OPS.get(i % OPS.size());
                try (var scope = run.op(op)) {
                    var answer = (dev.resilienceharness.http.HttpAnswer.Response) run.http().exchange(attempt(op));
                    String code = answer.status() == 429 ? " " + Json.readTree(answer.body()).get("error").get("code")
                            .asString() : "";
                    seen.add(answer.status() + code + " retry-after=" + answer.header("Retry-After")
                            + " remaining=" + answer.header("x-ratelimit-remaining-requests")
                            + " reset=" + answer.header("x-ratelimit-reset-requests"));
                    if (answer.status() == 429 && answer.header("Retry-After") != null) {
                        run.sleeper().sleep(Duration.ofSeconds(Long.parseLong(answer.header("Retry-After"))));
                    }
                }
            }
            return List.of();
        };
        Rehearsal.prepare(config, () -> loop).run(scenario(config, "s"), null);
        return seen;
    }

    @Test
    void overHttpAFullWindowIsA429WithOpenAisHeadersAndTheAnswersCarryTheRemainingCounts() throws Exception {
        assertEquals(List.of("200 retry-after=null remaining=1 reset=1m0s",
                "200 retry-after=null remaining=0 reset=1m0s",
                "429 rate_limit_exceeded retry-after=60 remaining=0 reset=1m0s",
                "200 retry-after=null remaining=1 reset=1m0s"),
                overHttp("provider_limits: {requests_per_minute: 2}", 4));
    }

    @Test
    void overHttpASpentQuotaIsA429InsufficientQuotaWithoutRetryAfter() throws Exception {
        assertEquals(List.of("200 retry-after=null remaining=null reset=null",
                "429 insufficient_quota retry-after=null remaining=null reset=null"),
                overHttp("provider_limits: {token_quota: 100}", 2));
    }

    @Test
    void reportsShowTokensAgainstBudgetTheirCostAndTheRefusedCalls() throws Exception {
        HarnessConfig config = project(yaml("provider_limits: {requests_per_minute: 2}",
                "budget:\n  max_tokens_per_scenario: 600\n  prices:\n    \"*\": {input: 0.15, output: 0.6}"));
        ScenarioResult r = check(config, LoopFactory.builtin());
        String json = reportJson(r);
        JsonNode scenario = Json.readTree(json).get("scenarios").get(0);
        // 5 answered calls of 100 + 50 tokens: 500 * 0.15 + 250 * 0.6 = 225 per million.
        assertEquals("{\"spent\":750,\"budget\":600,\"op_budget\":null,\"cost\":\"0.000225\",\"unpriced\":0,"
                + "\"refused_calls\":2}", Json.compact(scenario.get("tokens")));
        assertEquals("rate_limit", scenario.get("timeline").get("calls").get(2).get("limit").asString());
        assertEquals("rate_limit", scenario.get("timeline").get("calls").get(2).get("fault").asString());
        RunReport back = ReportJson.fromJson(Json.readTree(json));
        assertEquals(json, ReportJson.write(back));
        String html = dev.resilienceharness.report.HtmlReport.toHtml(back);
        assertTrue(html.contains("Tokens against budget"), html);
        assertTrue(html.contains("750 of 600 allowed; cost 0.000225; 2 calls refused by provider_limits"), html);
    }

    @Test
    void aScenarioThatCountsNoTokensKeepsItsReportAsItWas() throws Exception {
        HarnessConfig config = project(yaml("", ""));
        String json = reportJson(check(config, LoopFactory.builtin()));
        assertTrue(!json.contains("\"tokens\"") && !json.contains("\"limit\""), json);
    }
}
