package dev.resilienceharness.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The workshop's three graded tests ({@code test_policy.py}), ported as written: the built-in loop with
 * {@code quota.with_retry_after: stop} and {@code schema.repair_attempts: 0} behaves like {@code run_steps}.
 */
class WorkshopTest {

    static final Policy POLICY = Policy.defaults(Duration.ofSeconds(30))
            .withMaxAttempts(3)
            .withQuota(new Policy.Quota(RetryAfterHandling.STOP, Duration.ofSeconds(60)))
            .withSchema(new Policy.Schema(0));

    static final Map<String, JsonNode> CASSETTE = Map.of(
            "plan", obj().set("steps", JsonNodeFactory.instance.arrayNode().add("read").add("patch")),
            "patch", obj().put("ok", true));

    /** The workshop's {@code fault_transport}: faults consumed one per call, {@code null} = answer. */
    static final class FaultTransport implements Transport {
        final List<CallFailure> plan;
        int calls;

        FaultTransport(CallFailure... faults) {
            this.plan = new ArrayList<>(Arrays.asList(faults));
        }

        @Override
        public Reply call(ObjectNode payload) throws CallFailure {
            calls++;
            CallFailure fault = plan.isEmpty() ? null : plan.remove(0);
            if (fault != null) {
                throw fault;
            }
            return Reply.of(CASSETTE.get(payload.get("op").asString()));
        }
    }

    static List<Outcome> runSteps(Transport transport, List<String> ops) {
        ObjectNodeRequests requests = new ObjectNodeRequests();
        return new BuiltinLoop().run(new LoopRun(ops, requests, transport, POLICY, new VirtualClock(),
                new MemoryJournal()));
    }

    static final class ObjectNodeRequests implements java.util.function.Function<String, ObjectNode> {
        @Override
        public ObjectNode apply(String op) {
            return obj().put("op", op);
        }
    }

    static ObjectNode obj() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Test
    void transient_is_retried_once_then_succeeds() {
        FaultTransport transport = new FaultTransport(TransientError.timeout(), null);
        List<Outcome> out = runSteps(transport, List.of("plan"));
        assertEquals(List.of(Status.OK), out.stream().map(Outcome::status).toList());
        assertEquals(2, out.get(0).attempts());
    }

    @Test
    void quota_stops_the_loop_and_keeps_partial_work() {
        FaultTransport transport = new FaultTransport(null, new QuotaExhausted("2"));
        List<Outcome> out = runSteps(transport, List.of("plan", "patch"));
        assertEquals(List.of(Status.OK, Status.STOPPED), out.stream().map(Outcome::status).toList());
        assertEquals("2", out.get(1).retryAfter());
    }

    @Test
    void bad_tool_call_degrades_without_retrying() {
        FaultTransport transport = new FaultTransport(new BadToolCall("bad"));
        List<Outcome> out = runSteps(transport, List.of("plan"));
        assertEquals(Status.DEGRADED, out.get(0).status());
        assertEquals(1, transport.calls);
    }
}
