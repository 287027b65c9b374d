package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.transport.Reply;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class NoFaultTest {

    @Test
    void answers_the_call_exactly_as_recorded() throws Exception {
        Reply recorded = new Reply(JsonNodeFactory.instance.objectNode().put("done", "plan"), OptionalLong.of(420));
        assertSame(recorded, NoFault.INSTANCE.strike("plan", recorded));
    }

    @Test
    void is_written_as_the_bare_name_none() {
        assertEquals("none", NoFault.INSTANCE.kind());
        assertEquals("none", NoFault.INSTANCE.toYaml());
    }

    @Test
    void every_fault_kind_is_listed_in_spec_order() {
        assertEquals(java.util.List.of("none", "timeout", "server_error", "quota", "bad_tool_call",
                "slow_first_token", "crash", "latency", "stream_cut", "stream_stall", "malformed_event", "stream_error",
                "truncated_tool_call"), Fault.kinds());
        for (Fault f : new Fault[] {NoFault.INSTANCE, TimeoutFault.INSTANCE, new ServerErrorFault(503),
                new QuotaFault(null), BadToolCallFault.INSTANCE, new SlowFirstTokenFault(1), CrashFault.INSTANCE,
                RecordedLatencyFault.INSTANCE, new StreamCutFault(1), new StreamStallFault(1, 1), new MalformedEventFault(1), new StreamErrorFault(1),
                TruncatedToolCallFault.INSTANCE}) {
            assertTrue(Fault.kinds().contains(f.kind()), f.kind());
        }
    }
}
