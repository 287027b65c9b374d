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
import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequiredFieldsTest {

    @TempDir
    Path dir;

    /** Calls each op once and turns what happened into an outcome with {@code record}; stops on a quota. */
    private static LoopFactory callingOnce(Function<Object, Outcome> record) {
        return () -> run -> {
            List<Outcome> out = new ArrayList<>();
            for (String op : run.ops()) {
                Object result;
                try {
                    result = new Object[] {op, run.transport().call(run.request(op))};
                } catch (CallFailure e) {
                    result = new Object[] {op, e};
                }
                Outcome o = record.apply(result);
                out.add(o);
                if (o.status() == dev.resilienceharness.loop.Status.STOPPED) {
                    break;
                }
            }
            return out;
        };
    }

    private List<String> check(String faults, LoopFactory loop) throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 30s, concurrency: 5, schema: {repair_attempts: 0}}
                scenarios:
                  - name: fields
                    ops: [plan, patch]
                    faults: %s
                """.formatted(faults), "plan", "patch");
        RunTrace trace = Rehearsal.prepare(config, loop).run(scenario(config, "fields"), null);
        return RequiredFields.check(trace).stream().map(Violation::line).toList();
    }

    private static Outcome plain(Object result) {
        Object[] r = (Object[]) result;
        String op = (String) r[0];
        if (r[1] instanceof Reply reply) {
            return Outcome.ok(op, reply.body(), 1);
        }
        if (r[1] instanceof QuotaExhausted q) {
            return Outcome.stopped(op, q.retryAfter(), 1);
        }
        return Outcome.degraded(op, r[1] instanceof BadToolCall ? "schema" : "timeout", 1);
    }

    private static String line(String op, String message) {
        return "fields [expectations] op '" + op + "': " + message + ". " + Messages.HINT_FIELDS;
    }

    @Test
    void the_builtin_loop_records_every_required_field() throws Exception {
        for (String faults : List.of("[{quota: {retry_after: \"100\"}}]", "[quota]", "[timeout, timeout, timeout]",
                "[bad_tool_call]", "[{slow_first_token: {elapsed_ms: 3500}}, {slow_first_token: {elapsed_ms: 2001}}]")) {
            assertEquals(List.of(), check(faults, BuiltinLoop::new), faults);
        }
    }

    @Test
    void a_loop_that_leaves_out_elapsed_ms_fails() throws Exception {
        assertEquals(List.of(line("plan", "its outcome lacks elapsed_ms, which a slow first token (3500 ms, threshold"
                + " 2000 ms) requires")), check("[{slow_first_token: {elapsed_ms: 3500}}]", callingOnce(
                        RequiredFieldsTest::plain)));
    }

    @Test
    void a_loop_that_never_lowers_its_concurrency_fails() throws Exception {
        LoopFactory keepsItsLimit = callingOnce(r -> {
            Outcome o = plain(r);
            Reply reply = ((Object[]) r)[1] instanceof Reply x ? x : null;
            return reply != null && reply.firstTokenMs().isPresent() ? o.slow(reply.firstTokenMs().getAsLong(), 5) : o;
        });
        assertEquals(List.of(line("plan", "its outcome has concurrency 5 after a slow first token (3500 ms, threshold"
                + " 2000 ms); the policy halves the limit 5 to 2 (min 1)"), line("patch", "its outcome has concurrency"
                + " 5 after a slow first token (2500 ms, threshold 2000 ms); the policy halves the limit 5 to 2 (min 1)")),
                check("[{slow_first_token: {elapsed_ms: 3500}}, {slow_first_token: {elapsed_ms: 2500}}]", keepsItsLimit));
    }

    @Test
    void a_second_slow_token_halves_the_limit_the_first_one_left() throws Exception {
        LoopFactory halvesOnce = callingOnce(r -> {
            Reply reply = (Reply) ((Object[]) r)[1];
            return plain(r).slow(reply.firstTokenMs().getAsLong(), 2);
        });
        assertEquals(List.of(line("patch", "its outcome has concurrency 2 after a slow first token (2500 ms, threshold"
                + " 2000 ms); the policy halves the limit 2 to 1 (min 1)")),
                check("[{slow_first_token: {elapsed_ms: 3500}}, {slow_first_token: {elapsed_ms: 2500}}]", halvesOnce));
    }

    @Test
    void a_stop_after_a_retry_after_quota_needs_retry_after_and_one_without_needs_reason_quota() throws Exception {
        LoopFactory forgetful = callingOnce(r -> {
            Outcome o = plain(r);
            return o.status() == dev.resilienceharness.loop.Status.STOPPED
                    ? new Outcome(o.op(), o.status(), null, "rate-limited", null, 1, null, null) : o;
        });
        assertEquals(List.of(line("plan", "its outcome lacks retry_after, which a quota rejection with Retry-After"
                + " \"100\" requires")), check("[{quota: {retry_after: \"100\"}}]", forgetful));
        assertEquals(List.of(line("plan", "its outcome lacks reason: quota, which a quota rejection without"
                + " Retry-After requires")), check("[quota]", forgetful));
    }

    @Test
    void a_schema_degrade_needs_reason_schema_and_a_timeout_degrade_needs_attempts() throws Exception {
        LoopFactory vague = callingOnce(r -> {
            Outcome o = plain(r);
            return o.status() == dev.resilienceharness.loop.Status.DEGRADED
                    ? new Outcome(o.op(), o.status(), null, "failed", null, 0, null, null) : o;
        });
        assertEquals(List.of(line("plan", "its outcome lacks reason: schema, which a schema-broken tool call"
                + " requires")), check("[bad_tool_call]", vague));
        assertEquals(List.of(line("plan", "its outcome lacks attempts, which a transient failure requires")),
                check("[timeout]", vague));
    }
}
