package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.transport.BadToolCall;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.ProcessRecycled;
import dev.resilienceharness.transport.QuotaExhausted;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.TransientError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/** A fault's failure as a value ({@link Fault#failure}) is the very failure {@link Fault#strike} throws. */
class FaultFailureTest {

    private static final Reply RECORDED = Reply.of(JsonNodeFactory.instance.objectNode().put("done", "plan"));

    @Test
    void every_failing_kind_makes_the_failure_its_strike_throws() {
        Map<Fault, Class<? extends CallFailure>> failing = Map.ofEntries(
                Map.entry(TimeoutFault.INSTANCE, TransientError.class),
                Map.entry(new ServerErrorFault(502), TransientError.class),
                Map.entry(new QuotaFault("2"), QuotaExhausted.class),
                Map.entry(new QuotaFault(null), QuotaExhausted.class),
                Map.entry(BadToolCallFault.INSTANCE, BadToolCall.class),
                Map.entry(new StreamCutFault(2), TransientError.class),
                Map.entry(new StreamStallFault(1, 90_000), TransientError.class),
                Map.entry(new MalformedEventFault(3), TransientError.class),
                Map.entry(new StreamErrorFault(0), TransientError.class),
                Map.entry(TruncatedToolCallFault.INSTANCE, BadToolCall.class));
        failing.forEach((fault, kind) -> {
            CallFailure made = fault.failure("plan");
            assertNotNull(made, fault.kind());
            assertEquals(kind, made.getClass(), fault.kind());
            CallFailure thrown = assertThrows(kind, () -> fault.strike("plan", RECORDED), fault.kind());
            assertEquals(made.getMessage(), thrown.getMessage(), fault.kind());
        });
        TransientError stall = (TransientError) new StreamStallFault(1, 90_000).failure("plan");
        assertEquals("stream_stall", stall.streamFault());
        assertEquals(1, stall.streamEvents());
        assertEquals(502, ((TransientError) new ServerErrorFault(502).failure("plan")).status());
        assertEquals("2", ((QuotaExhausted) new QuotaFault("2").failure("plan")).retryAfter());
        assertEquals("injected bad_tool_call for op 'search'", BadToolCallFault.INSTANCE.failure("search").getMessage());
    }

    @Test
    void the_kinds_that_answer_make_no_failure_and_a_crash_is_still_thrown() throws CallFailure {
        for (Fault answering : List.of(NoFault.INSTANCE, new SlowFirstTokenFault(3000), RecordedLatencyFault.INSTANCE)) {
            assertNull(answering.failure("plan"), answering.kind());
            assertSame(RECORDED.body(), answering.strike("plan", RECORDED).body(), answering.kind());
        }
        assertEquals(3000, new SlowFirstTokenFault(3000).strike("plan", RECORDED).firstTokenMs().getAsLong());
        assertNull(CrashFault.INSTANCE.failure("plan"));
        assertThrows(ProcessRecycled.class, () -> CrashFault.INSTANCE.strike("plan", RECORDED));
    }
}
