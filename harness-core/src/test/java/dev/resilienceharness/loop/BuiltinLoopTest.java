package dev.resilienceharness.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.policy.RetryAfterHandling;
import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.Transport;
import dev.resilienceharness.transport.TransientError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** One test per row of the policy table in docs builtin-loop.md, plus the wait-bound cutoff. */
class BuiltinLoopTest {

    static final Policy BASE = Policy.defaults(Duration.ofSeconds(30));

    /** Answers in order: a {@link CallFailure} is thrown, a {@link Long} is a reply that late, null a plain reply. */
    static final class Scripted implements Transport {
        final List<Object> script;
        final List<ObjectNode> payloads = new ArrayList<>();

        Scripted(Object... script) {
            this.script = new ArrayList<>(Arrays.asList(script));
        }

        @Override
        public Reply call(ObjectNode payload) throws CallFailure {
            payloads.add(payload.deepCopy());
            Object next = script.isEmpty() ? null : script.remove(0);
            if (next instanceof CallFailure f) {
                throw f;
            }
            Reply reply = Reply.of(JsonNodeFactory.instance.objectNode().put("answer", payload.get("op").asString()));
            return next instanceof Long late ? reply.arrivingAfter(late) : reply;
        }
    }

    record Result(List<Outcome> outcomes, VirtualClock clock, Scripted transport) {
    }

    static Result run(Policy policy, List<String> ops, Object... script) {
        Scripted transport = new Scripted(script);
        VirtualClock clock = new VirtualClock();
        List<Outcome> out = new BuiltinLoop().run(new LoopRun(ops,
                op -> JsonNodeFactory.instance.objectNode().put("op", op), transport, policy, clock,
                new MemoryJournal()));
        return new Result(out, clock, transport);
    }

    static List<Long> waitsMs(VirtualClock clock) {
        return clock.waits().stream().map(w -> w.nanos() / 1_000_000).toList();
    }

    @Test
    void none_returns_the_value_with_keys_in_order() {
        Result r = run(BASE, List.of("plan"));
        assertEquals("{\"op\":\"plan\",\"status\":\"ok\",\"value\":{\"answer\":\"plan\"},\"attempts\":1}",
                r.outcomes().get(0).toJson().toString());
    }

    @Test
    void transient_failures_back_off_exponentially_then_degrade() {
        Result r = run(BASE, List.of("plan"), TransientError.timeout(), TransientError.status(503),
                TransientError.timeout());
        assertEquals("{\"op\":\"plan\",\"status\":\"degraded\",\"reason\":\"timeout\",\"attempts\":3}",
                r.outcomes().get(0).toJson().toString());
        assertEquals(List.of(10L, 20L), waitsMs(r.clock()));
    }

    @Test
    void an_error_event_inside_a_200_stream_is_retried_with_the_partial_text_it_brought_dropped() {
        // The SDK's retries never saw it (the status was 200); the built-in loop had emitted nothing of the answer.
        Result r = run(BASE, List.of("plan"), TransientError.stream("stream_error", 4), null);
        Outcome plan = r.outcomes().get(0);
        assertEquals(Status.OK, plan.status());
        assertEquals(2, plan.attempts());
        assertEquals(4, plan.streamEvents());
        assertEquals(Outcome.DROPPED, plan.partialText());
        assertEquals(List.of(BASE.backoff(1).toMillis()), waitsMs(r.clock()));
    }

    @Test
    void backoff_is_capped_at_max_delay() {
        Policy p = new Policy(5, Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofSeconds(30),
                BASE.quota(), BASE.schema(), BASE.slowFirstToken(), 4);
        Result r = run(p, List.of("plan"), TransientError.timeout(), TransientError.timeout(),
                TransientError.timeout(), TransientError.timeout());
        assertEquals(List.of(100L, 200L, 250L, 250L), waitsMs(r.clock()));
        assertEquals(5, r.outcomes().get(0).attempts());
        assertEquals(Status.OK, r.outcomes().get(0).status());
    }

    @Test
    void quota_with_an_honourable_retry_after_waits_and_retries_once() {
        Result r = run(BASE, List.of("plan"), new QuotaExhausted("1.5"));
        assertEquals(Status.OK, r.outcomes().get(0).status());
        assertEquals(2, r.outcomes().get(0).attempts());
        assertEquals(List.of(1500L), waitsMs(r.clock()));
    }

    @Test
    void a_second_quota_on_the_op_stops_the_run() {
        Result r = run(BASE, List.of("plan", "patch"), new QuotaExhausted("1"), new QuotaExhausted("1"));
        assertEquals(1, r.outcomes().size());
        assertEquals("{\"op\":\"plan\",\"status\":\"stopped\",\"reason\":\"quota\",\"retry_after\":\"1\","
                + "\"attempts\":2}", r.outcomes().get(0).toJson().toString());
    }

    @Test
    void quota_without_header_stops_at_once_keeping_finished_work() {
        Result r = run(BASE, List.of("plan", "patch", "test"), null, new QuotaExhausted(null));
        assertEquals(List.of(Status.OK, Status.STOPPED), r.outcomes().stream().map(Outcome::status).toList());
        assertNull(r.outcomes().get(1).retryAfter());
        assertEquals(2, r.transport().payloads.size());
        assertEquals("{\"op\":\"patch\",\"status\":\"stopped\",\"reason\":\"quota\",\"retry_after\":null,"
                + "\"attempts\":1}", r.outcomes().get(1).toJson().toString());
    }

    @Test
    void quota_stating_more_than_max_retry_after_stops() {
        Result r = run(BASE, List.of("plan"), new QuotaExhausted("61"));
        assertEquals(Status.STOPPED, r.outcomes().get(0).status());
        assertEquals("61", r.outcomes().get(0).retryAfter());
        assertEquals(List.of(), waitsMs(r.clock()));
    }

    @Test
    void quota_with_retry_after_under_stop_policy_stops() {
        Policy p = BASE.withQuota(new Policy.Quota(RetryAfterHandling.STOP, Duration.ofSeconds(60)));
        Result r = run(p, List.of("plan"), new QuotaExhausted("1"));
        assertEquals(Status.STOPPED, r.outcomes().get(0).status());
        assertEquals(1, r.transport().payloads.size());
    }

    @Test
    void unreadable_retry_after_counts_as_absent() {
        Result r = run(BASE, List.of("plan"), new QuotaExhausted("soon"));
        assertEquals("soon", r.outcomes().get(0).retryAfter());
        assertEquals(Status.STOPPED, r.outcomes().get(0).status());
    }

    @Test
    void http_date_retry_after_is_measured_on_the_virtual_clock() {
        Result r = run(BASE, List.of("plan"), new QuotaExhausted("Thu, 01 Jan 2026 00:00:05 GMT"));
        assertEquals(Status.OK, r.outcomes().get(0).status());
        assertEquals(List.of(5000L), waitsMs(r.clock()));
    }

    @Test
    void schema_failures_get_repair_calls_then_degrade() {
        Policy p = BASE.withSchema(new Policy.Schema(2));
        Result r = run(p, List.of("plan"), new BadToolCall("x"), new BadToolCall("x"), new BadToolCall("x"));
        assertEquals("{\"op\":\"plan\",\"status\":\"degraded\",\"reason\":\"schema\",\"attempts\":3}",
                r.outcomes().get(0).toJson().toString());
        assertEquals(List.of("{\"op\":\"plan\"}", "{\"op\":\"plan\",\"repair\":1}", "{\"op\":\"plan\",\"repair\":2}"),
                r.transport().payloads.stream().map(Object::toString).toList());
    }

    @Test
    void a_repair_appends_the_policy_instruction_to_the_messages() {
        Policy p = BASE.withSchema(new Policy.Schema(1, "Reply with valid JSON"));
        Result r = run(p, List.of("plan"), new BadToolCall("x"));
        assertEquals(List.of("{\"op\":\"plan\"}", "{\"op\":\"plan\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Reply with valid JSON\"}],\"repair\":1}"),
                r.transport().payloads.stream().map(Object::toString).toList());
        assertEquals(Status.OK, r.outcomes().get(0).status());
    }

    @Test
    void a_repair_that_succeeds_is_ok() {
        Result r = run(BASE, List.of("plan"), new BadToolCall("x"));
        assertEquals(Status.OK, r.outcomes().get(0).status());
        assertEquals(2, r.outcomes().get(0).attempts());
    }

    @Test
    void slow_first_token_halves_concurrency_without_retrying() {
        Result r = run(BASE, List.of("plan", "patch", "test", "read"), 2001L, 9000L, 2000L, 5000L);
        assertEquals("{\"op\":\"plan\",\"status\":\"ok\",\"value\":{\"answer\":\"plan\"},\"attempts\":1,"
                + "\"elapsed_ms\":2001,\"concurrency\":2}", r.outcomes().get(0).toJson().toString());
        assertEquals(1, r.outcomes().get(1).concurrency());
        assertNull(r.outcomes().get(2).elapsedMs(), "exactly the threshold is not slow");
        assertEquals(1, r.outcomes().get(3).concurrency(), "the limit never drops below 1");
        assertEquals(4, r.transport().payloads.size());
    }

    @Test
    void a_transient_wait_past_the_bound_is_not_taken_and_the_op_degrades() {
        Policy p = BASE.withMaxTotalWait(Duration.ofMillis(25));
        Result r = run(p, List.of("plan"), TransientError.timeout(), TransientError.timeout(), null);
        assertEquals("{\"op\":\"plan\",\"status\":\"degraded\",\"reason\":\"timeout\",\"attempts\":2}",
                r.outcomes().get(0).toJson().toString());
        assertEquals(List.of(10L), waitsMs(r.clock()));
    }

    @Test
    void a_quota_wait_past_the_bound_is_not_taken_and_the_run_stops() {
        Policy p = BASE.withMaxTotalWait(Duration.ofSeconds(1));
        Result r = run(p, List.of("plan", "patch"), new QuotaExhausted("2"));
        assertEquals(Status.STOPPED, r.outcomes().get(0).status());
        assertEquals(List.of(), waitsMs(r.clock()));
    }

    @Test
    void resumes_from_the_journal_without_calling_finished_ops() {
        MemoryJournal journal = new MemoryJournal();
        journal.record(Outcome.ok("plan", JsonNodeFactory.instance.objectNode(), 3).slow(9000, 2));
        Scripted transport = new Scripted();
        List<Outcome> out = new BuiltinLoop().run(new LoopRun(List.of("plan", "patch"),
                op -> JsonNodeFactory.instance.objectNode().put("op", op), transport, BASE, new VirtualClock(),
                journal));
        assertEquals(1, transport.payloads.size());
        assertEquals("patch", transport.payloads.get(0).get("op").asString());
        assertEquals(3, out.get(0).attempts());
        assertEquals(2, journal.completed().size());
    }

    @Test
    void after_a_restart_the_op_in_flight_carries_on_from_its_checkpoint() {
        MemoryJournal journal = new MemoryJournal();
        journal.checkpoint("plan", new Journal.Progress(2, 1, 0, true));
        Scripted transport = new Scripted(new QuotaExhausted("1"));
        List<Outcome> out = new BuiltinLoop().run(new LoopRun(List.of("plan"),
                op -> JsonNodeFactory.instance.objectNode().put("op", op), transport, BASE, new VirtualClock(),
                journal));
        assertEquals("{\"op\":\"plan\",\"status\":\"stopped\",\"reason\":\"quota\",\"retry_after\":\"1\","
                + "\"attempts\":3}", out.get(0).toJson().toString(), "the Retry-After retry was spent before the crash");
    }

    @Test
    void checkpoints_note_the_retry_state_before_each_retry() {
        MemoryJournal journal = new MemoryJournal();
        Scripted transport = new Scripted(TransientError.timeout(), new BadToolCall("x"), null);
        new BuiltinLoop().run(new LoopRun(List.of("plan"), op -> JsonNodeFactory.instance.objectNode().put("op", op),
                transport, BASE, new VirtualClock(), journal));
        assertEquals(Journal.Progress.NONE, journal.progress("plan"), "a recorded outcome clears its checkpoint");
        assertEquals(3, transport.payloads.size());
    }
}
