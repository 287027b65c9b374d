package dev.resilienceharness.invariant;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.loop.BuiltinLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetryPacingTest {

    @TempDir
    Path dir;

    /** Retries every failure of an op up to three calls, waiting {@code wait(n)} before the n-th retry. */
    private static LoopFactory retryAfterWaiting(Duration... waits) {
        return () -> run -> {
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                for (int attempt = 1; ; attempt++) {
                    try {
                        out.add(Outcome.ok(op, run.transport().call(run.request(op)).body(), attempt));
                        break;
                    } catch (CallFailure e) {
                        if (attempt == 3) {
                            out.add(e instanceof QuotaExhausted q ? Outcome.stopped(op, q.retryAfter(), attempt)
                                    : Outcome.degraded(op, "timeout", attempt));
                            return out;
                        }
                        Duration wait = waits[Math.min(attempt - 1, waits.length - 1)];
                        if (!wait.isZero()) {
                            run.sleeper().sleep(wait);
                        }
                    }
                }
            }
            return out;
        };
    }

    private List<Violation> check(String policy, String faults, LoopFactory loop) throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_attempts: 3, base_delay: 100ms, max_delay: 150ms, max_total_wait: 30s%s}
                scenarios:
                  - name: paced
                    ops: [plan]
                    faults: %s
                """.formatted(policy, faults), "plan");
        RunTrace trace = Rehearsal.prepare(config, loop).run(scenario(config, "paced"), null);
        return RetryPacing.check(trace);
    }

    private static List<String> lines(List<Violation> violations) {
        return violations.stream().map(Violation::line).toList();
    }

    @Test
    void a_retry_at_once_after_a_retry_after_quota_fails_with_the_stated_and_the_actual_gap() throws Exception {
        List<Violation> found = check("", "[{quota: {retry_after: \"2\"}}]", retryAfterWaiting(Duration.ZERO));
        assertEquals(List.of("paced [bounded_wait] op 'plan': retried 0 ms after a quota rejection with Retry-After"
                + " \"2\", which states 2000 ms (bound at least 2000 ms, actual 0 ms). " + Messages.HINT_RETRY_AFTER),
                lines(found));
    }

    @Test
    void a_retry_one_nanosecond_early_fails_and_one_on_time_passes() throws Exception {
        assertEquals(1, check("", "[{quota: {retry_after: \"1.5\"}}]",
                retryAfterWaiting(Duration.ofMillis(1500).minusNanos(1))).size());
        assertEquals(List.of(), check("", "[{quota: {retry_after: \"1.5\"}}]",
                retryAfterWaiting(Duration.ofMillis(1500))));
    }

    @Test
    void an_http_date_is_measured_against_the_virtual_clock_at_the_rejection() throws Exception {
        String faults = "[{quota: {retry_after: \"Thu, 01 Jan 2026 00:00:03 GMT\"}}]";
        List<Violation> early = check("", faults, retryAfterWaiting(Duration.ofSeconds(2)));
        assertEquals(List.of("3000 ms"), early.stream().map(v -> v.bound().replace("at least ", "")).toList());
        assertEquals(List.of(), check("", faults, retryAfterWaiting(Duration.ofSeconds(3))));
    }

    @Test
    void a_quota_the_policy_does_not_honour_sets_no_minimum_gap() throws Exception {
        // Retrying it is over budget (CallBudget says so); the wait before that retry is not judged here.
        assertEquals(List.of(), check(", quota: {with_retry_after: stop}", "[{quota: {retry_after: \"2\"}}]",
                retryAfterWaiting(Duration.ZERO)));
        assertEquals(List.of(), check("", "[quota]", retryAfterWaiting(Duration.ZERO)));
    }

    @Test
    void transient_retries_must_wait_the_declared_backoff() throws Exception {
        List<Violation> found = check("", "[timeout, timeout]",
                retryAfterWaiting(Duration.ofMillis(100), Duration.ofMillis(149)));
        assertEquals(List.of("paced [bounded_wait] op 'plan': retried 149 ms after its 2nd transient failure; the"
                + " policy's backoff is 150 ms (jitter none: at least 150 ms) (bound at least 150 ms, actual 149 ms). "
                + Messages.HINT_BACKOFF), lines(found));
        assertEquals(List.of(), check("", "[timeout, timeout]",
                retryAfterWaiting(Duration.ofMillis(100), Duration.ofMillis(150))));
    }

    @Test
    void a_transient_retry_at_once_fails_once_per_op() throws Exception {
        assertEquals(List.of("at least 100 ms"), check("", "[timeout]", retryAfterWaiting(Duration.ZERO)).stream()
                .map(Violation::bound).toList());
        assertEquals(List.of("at least 100 ms"), check("", "[timeout, timeout]", retryAfterWaiting(Duration.ZERO))
                .stream().map(Violation::bound).toList(), "the first early retry of an op is the one reported");
    }

    @Test
    void declared_jitter_lowers_the_bound_full_to_zero_and_equal_to_half() throws Exception {
        assertEquals(List.of(), check(", jitter: full", "[timeout, timeout]", retryAfterWaiting(Duration.ZERO)));
        assertEquals(List.of(), check(", jitter: equal", "[timeout, timeout]",
                retryAfterWaiting(Duration.ofMillis(50), Duration.ofMillis(75))));
        List<Violation> found = check(", jitter: equal", "[timeout, timeout]",
                retryAfterWaiting(Duration.ofMillis(50), Duration.ofMillis(74)));
        assertEquals(List.of("retried 74 ms after its 2nd transient failure; the policy's backoff is 150 ms (jitter"
                + " equal: at least 75 ms)"), found.stream().map(Violation::message).toList());
    }

    @Test
    void the_builtin_loop_keeps_every_pace() throws Exception {
        for (String faults : List.of("[timeout, timeout]", "[{quota: {retry_after: \"2\"}}]", "[server_error, quota]",
                "[{quota: {retry_after: \"Thu, 01 Jan 2026 00:00:01 GMT\"}}, timeout]", "[timeout, crash, timeout]")) {
            assertEquals(List.of(), check("", faults, BuiltinLoop::new), faults);
        }
    }

    @Test
    void the_bounded_wait_invariant_reports_an_early_retry() throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 30s}
                scenarios:
                  - name: eager
                    ops: [plan]
                    faults: [{quota: {retry_after: "2"}}]
                """, "plan");
        RunTrace trace = Rehearsal.prepare(config, retryAfterWaiting(Duration.ZERO)).run(scenario(config, "eager"),
                null);
        assertEquals(List.of(Invariant.BOUNDED_WAIT), new BoundedWaiting().check(trace).stream()
                .map(Violation::invariant).toList());
    }

    @Test
    void ordinals_read_as_english() {
        assertEquals(List.of("1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd"),
                List.of(1, 2, 3, 4, 11, 12, 13, 21, 102).stream().map(Messages::ordinal).toList());
    }

    @Test
    void with_max_rounds_each_round_counts_its_transient_failures_from_one() {
        dev.resilienceharness.policy.Policy policy = dev.resilienceharness.policy.Policy.defaults(
                Duration.ofSeconds(30));
        long ms = 1_000_000L;
        // round 1: a timeout, then the answer 10 ms later; round 2: a timeout, then the answer 10 ms later
        List<dev.resilienceharness.trace.CallRecord> calls = List.of(
                call(0, dev.resilienceharness.trace.CallRecord.Result.TRANSIENT, 0),
                call(1, dev.resilienceharness.trace.CallRecord.Result.OK, 10 * ms),
                call(2, dev.resilienceharness.trace.CallRecord.Result.TRANSIENT, 20 * ms),
                call(3, dev.resilienceharness.trace.CallRecord.Result.OK, 30 * ms));
        assertEquals(List.of(), RetryPacing.check(trace(policy.withMaxRounds(2), calls)),
                "round 2's first retry owes backoff(1), 10 ms");
        assertEquals(List.of("s [bounded_wait] op 'plan': retried 10 ms after its 2nd transient failure; the policy's"
                + " backoff is 20 ms (jitter none: at least 20 ms) (bound at least 20 ms, actual 10 ms). Wait"
                + " policy.backoff(n) with run.sleeper() before retrying after the n-th transient failure, or declare"
                + " the jitter your loop uses (policy.jitter: full | equal)"),
                RetryPacing.check(trace(policy, calls)).stream().map(Violation::line).toList(),
                "with max_rounds 1 every call is one round, as before");
    }

    private static dev.resilienceharness.trace.CallRecord call(int i, dev.resilienceharness.trace.CallRecord.Result r,
            long atNanos) {
        return new dev.resilienceharness.trace.CallRecord(i, "plan", 0, "none", r, 0, null, false, atNanos, null, 0);
    }

    private static RunTrace trace(dev.resilienceharness.policy.Policy policy,
            List<dev.resilienceharness.trace.CallRecord> calls) {
        dev.resilienceharness.config.Scenario s = new dev.resilienceharness.config.Scenario("s", List.of("plan"),
                List.of(), dev.resilienceharness.config.Expectations.NONE, policy, 1);
        return new RunTrace(s, List.of(), calls, List.of(), Duration.ZERO, List.of(), null);
    }
}
