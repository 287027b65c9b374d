package dev.resilienceharness.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.transport.Reply;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class SlowFirstTokenFaultTest {

    @Test
    void the_recorded_answer_arrives_with_the_stated_first_token_latency() {
        ObjectNode body = JsonNodeFactory.instance.objectNode().put("done", "plan");
        Reply reply = new SlowFirstTokenFault(3500).strike("plan", Reply.of(body));
        assertSame(body, reply.body());
        assertEquals(OptionalLong.of(3500), reply.firstTokenMs());
    }

    @Test
    void the_stated_latency_replaces_a_recorded_one() {
        Reply recorded = new Reply(JsonNodeFactory.instance.objectNode(), OptionalLong.of(420));
        assertEquals(OptionalLong.of(9000), new SlowFirstTokenFault(9000).strike("plan", recorded).firstTokenMs());
    }

    @Test
    void a_negative_latency_is_refused_and_zero_is_allowed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SlowFirstTokenFault(-1));
        assertEquals("elapsed_ms must not be negative, was -1", e.getMessage());
        assertEquals(0, new SlowFirstTokenFault(0).elapsedMs());
    }

    @Test
    void is_written_as_a_mapping_with_elapsed_ms() {
        assertEquals("slow_first_token", new SlowFirstTokenFault(3500).kind());
        assertEquals(Map.of("slow_first_token", Map.of("elapsed_ms", 3500L)), new SlowFirstTokenFault(3500).toYaml());
    }
}
