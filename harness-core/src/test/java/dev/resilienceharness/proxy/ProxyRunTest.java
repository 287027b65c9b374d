package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.Budget;
import dev.resilienceharness.config.Expectations;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.fault.Fault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.RecordedLatencyFault;
import dev.resilienceharness.fault.TimeoutFault;
import dev.resilienceharness.http.FaultAnswer;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.CallRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProxyRunTest {

    static final FaultAnswer OK = FaultAnswer.ok(Json.readTree("{}"), Duration.ofMillis(5));
    static final FaultAnswer FAILED = FaultAnswer.error(429, Map.of(), Json.readTree("{}"));
    static final long MS = 1_000_000L;

    static Scenario scenario(List<Fault> faults, Duration maxWait) {
        return new Scenario("s", List.of("plan"), faults, Expectations.NONE, Policy.defaults(maxWait), 0);
    }

    static Budget noCap() {
        return Budget.NONE;
    }

    @Test
    void handsOutThePlanThenNone() {
        ProxyRun run = new ProxyRun(scenario(List.of(TimeoutFault.INSTANCE), Duration.ofSeconds(1)), 0);
        assertEquals(TimeoutFault.INSTANCE, run.nextFault());
        assertEquals(NoFault.INSTANCE, run.nextFault());
    }

    @Test
    void underLatencyRecordedEveryUnfaultedRequestDrawsAndEachKnowsItsPlace() {
        Scenario recorded = new Scenario("s", List.of("plan"), List.of(NoFault.INSTANCE, TimeoutFault.INSTANCE),
                Expectations.NONE, Policy.defaults(Duration.ofSeconds(1)), 0, true);
        ProxyRun run = new ProxyRun(recorded, 0);
        assertEquals(new ProxyRun.Planned(RecordedLatencyFault.INSTANCE, 0), run.nextPlanned());
        assertEquals(new ProxyRun.Planned(TimeoutFault.INSTANCE, 1), run.nextPlanned());
        assertEquals(new ProxyRun.Planned(RecordedLatencyFault.INSTANCE, 2), run.nextPlanned(), "after the plan");
        ProxyRun plain = new ProxyRun(scenario(List.of(), Duration.ofSeconds(1)), 0);
        assertEquals(new ProxyRun.Planned(NoFault.INSTANCE, 0), plain.nextPlanned());
    }

    @Test
    void theWaitIsFromAFailedAnswerToTheNextRequest() {
        ProxyRun run = new ProxyRun(scenario(List.of(new QuotaFault("1")), Duration.ofSeconds(5)), 0);
        run.call("plan", new QuotaFault("1"), FAILED, null, 10 * MS);
        run.call("plan", NoFault.INSTANCE, OK, null, 1_010 * MS);
        run.call("plan", NoFault.INSTANCE, OK, null, 3_000 * MS); // after a success: think time, not waiting
        ScenarioResult r = run.result(noCap());
        assertEquals(Duration.ofSeconds(1), r.trace().totalWait());
        List<CallRecord> calls = r.trace().calls();
        assertEquals(CallRecord.Result.QUOTA, calls.get(0).result());
        assertEquals("1", calls.get(0).retryAfter());
        assertTrue(calls.get(0).honourable(), "1 s is within the default max_retry_after");
        assertEquals(CallRecord.Result.OK, calls.get(1).result());
        assertEquals(5L, calls.get(1).firstTokenMs());
    }

    @Test
    void overspendAndOverwaitAreViolations() {
        ProxyRun run = new ProxyRun(scenario(List.of(), Duration.ofMillis(100)), 0);
        run.call("plan", TimeoutFault.INSTANCE, FaultAnswer.timeout(Duration.ofMillis(10), Json.readTree("{}")), null,
                0);
        run.call("plan", TimeoutFault.INSTANCE, FaultAnswer.timeout(Duration.ofMillis(10), Json.readTree("{}")), null,
                500 * MS);
        run.call("plan", TimeoutFault.INSTANCE, FaultAnswer.timeout(Duration.ofMillis(10), Json.readTree("{}")), null,
                600 * MS);
        run.call("plan", NoFault.INSTANCE, OK, null, 700 * MS);
        ScenarioResult r = run.result(noCap());
        assertEquals(List.of("budget", "bounded_wait"), r.violations().stream().map(v -> v.invariant().id()).toList());
        assertEquals(3, r.callBudget());
    }

    @Test
    void aCassetteMissIsReportedNotCounted() {
        ProxyRun run = new ProxyRun(scenario(List.of(), Duration.ofSeconds(1)), 0);
        run.call("0123456789abcdef", NoFault.INSTANCE, FaultAnswer.error(404, Map.of(), Json.readTree("{}")),
                "no cassette answers this request", 0);
        ScenarioResult r = run.result(noCap());
        assertEquals(0, r.calls());
        assertEquals(1, run.requests());
        assertEquals("cassettes", r.violations().get(0).invariant().id());
        assertEquals("0123456789abcdef", r.violations().get(0).op());
    }
}
