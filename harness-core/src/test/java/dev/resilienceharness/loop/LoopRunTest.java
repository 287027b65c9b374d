package dev.resilienceharness.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.policy.Policy;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class LoopRunTest {

    private static final Policy POLICY = Policy.defaults(Duration.ofSeconds(30));
    private static final Transport TRANSPORT = payload -> Reply.of(payload);

    private static LoopRun run(List<String> ops, Function<String, ObjectNode> requests, VirtualClock clock) {
        return new LoopRun(ops, requests, TRANSPORT, POLICY, clock, new MemoryJournal());
    }

    @Test
    void the_request_from_the_config_is_a_fresh_copy_each_time(@TempDir Path dir) throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 1s}
                requests:
                  plan: {model: m, messages: [{role: user, content: plan the fix}]}
                scenarios:
                  - {name: s, ops: [plan]}
                """);
        LoopRun run = run(List.of("plan"), config::request, new VirtualClock());
        ObjectNode first = run.request("plan");
        first.put("repair", 1);
        first.withArray("messages").addObject().put("role", "assistant");
        ObjectNode second = run.request("plan");
        assertNotSame(first, second);
        assertEquals("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"plan the fix\"}]}",
                second.toString());
        assertEquals("{\"op\":\"patch\"}", run.request("patch").toString(), "an undeclared op sends {\"op\": name}");
    }

    @Test
    void the_request_is_a_fresh_copy_whatever_function_supplies_it() {
        Map<String, ObjectNode> requests = Map.of("plan", JsonNodeFactory.instance.objectNode().put("op", "plan"));
        LoopRun run = run(List.of("plan"), requests::get, new VirtualClock());
        run.request("plan").put("repair", 1);
        assertEquals("{\"op\":\"plan\"}", run.request("plan").toString());
    }

    @Test
    void the_ops_are_fixed_when_the_run_is_made() {
        List<String> ops = new ArrayList<>(List.of("plan", "patch"));
        LoopRun run = run(ops, op -> JsonNodeFactory.instance.objectNode(), new VirtualClock());
        ops.add("review");
        assertEquals(List.of("plan", "patch"), run.ops());
        assertThrows(UnsupportedOperationException.class, () -> run.ops().add("review"));
    }

    @Test
    void waiting_through_the_sleeper_moves_the_runs_virtual_clock() {
        VirtualClock clock = new VirtualClock();
        LoopRun run = run(List.of("plan"), op -> JsonNodeFactory.instance.objectNode(), clock);
        assertEquals(VirtualClock.EPOCH, run.now());
        run.sleeper().sleep(Duration.ofMillis(1500));
        assertEquals(Duration.ofMillis(1500), run.waited());
        assertEquals(VirtualClock.EPOCH.plusMillis(1500), run.now());
        assertEquals(1, clock.waits().size());
    }

    @Test
    void hands_out_what_it_was_given() {
        MemoryJournal journal = new MemoryJournal();
        LoopRun run = new LoopRun(List.of("plan"), op -> null, TRANSPORT, POLICY, new VirtualClock(), journal);
        assertSame(TRANSPORT, run.transport());
        assertSame(POLICY, run.policy());
        assertSame(journal, run.journal());
    }

    @Test
    void every_part_is_required() {
        Function<String, ObjectNode> req = op -> null;
        VirtualClock c = new VirtualClock();
        MemoryJournal j = new MemoryJournal();
        assertThrows(NullPointerException.class, () -> new LoopRun(null, req, TRANSPORT, POLICY, c, j));
        assertThrows(NullPointerException.class, () -> new LoopRun(List.of(), null, TRANSPORT, POLICY, c, j));
        assertThrows(NullPointerException.class, () -> new LoopRun(List.of(), req, null, POLICY, c, j));
        assertThrows(NullPointerException.class, () -> new LoopRun(List.of(), req, TRANSPORT, null, c, j));
        assertThrows(NullPointerException.class, () -> new LoopRun(List.of(), req, TRANSPORT, POLICY, null, j));
        assertThrows(NullPointerException.class, () -> new LoopRun(List.of(), req, TRANSPORT, POLICY, c, null));
    }
}
