package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.transport.RepairRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** A repair carrying the policy's instruction is answered from its own cassette, else from the op's. */
class RepairCassettesTest {

    static final String INSTRUCTION = "Reply with one valid tool call.";

    @TempDir
    Path dir;

    private static ObjectNode answer(String arguments) {
        return (ObjectNode) Json.readTree("""
                {"choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [
                  {"id": "call_1", "type": "function", "function": {"name": "edit", "arguments": %s}}]}}]}
                """.formatted(Json.compact(tools.jackson.databind.node.StringNode.valueOf(arguments))));
    }

    private HarnessConfig project(String faults, boolean broken, boolean repairRecorded) throws Exception {
        Path project = Files.createTempDirectory(dir, "project");
        Files.writeString(project.resolve("resilience.yaml"), """
                version: 1
                volatile: []
                policy: {max_total_wait: 30s, schema: {repair_attempts: 1, repair_instruction: "%s"}}
                requests:
                  patch: {model: m, messages: [{role: user, content: write the patch}]}
                scenarios:
                  - name: repair
                    ops: [patch]
                    faults: %s
                """.formatted(INSTRUCTION, faults), StandardCharsets.UTF_8);
        HarnessConfig config = ConfigLoader.load(project.resolve("resilience.yaml"));
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        store.write(config.request("patch"), answer(broken ? "{\"path\":" : "{\"path\": \"op\"}"), null);
        if (repairRecorded) {
            store.write(RepairRequest.withInstruction(config.request("patch"), INSTRUCTION),
                    answer("{\"path\": \"repaired\"}"), null);
        }
        return config;
    }

    private Outcome run(HarnessConfig config) throws Exception {
        return Rehearsal.prepare(config, LoopFactory.builtin()).run(config.scenarios().get(0), null).outcomes().get(0);
    }

    private static String path(Outcome o) {
        String arguments = o.value().get("choices").get(0).get("message").get("tool_calls").get(0).get("function")
                .get("arguments").asString();
        return Json.readTree(arguments).get("path").asString();
    }

    @Test
    void a_recorded_repair_answers_the_repair_of_a_recorded_broken_tool_call() throws Exception {
        Outcome o = run(project("[]", true, true));
        assertEquals("{\"op\":\"patch\",\"status\":\"ok\",\"attempts\":2}", Json.compact(o.toJson().without("value")));
        assertEquals("repaired", path(o));
    }

    @Test
    void without_a_recorded_repair_the_op_cassette_answers_and_a_broken_one_stays_broken() throws Exception {
        Outcome o = run(project("[]", true, false));
        assertEquals("{\"op\":\"patch\",\"status\":\"degraded\",\"reason\":\"schema\",\"attempts\":2}",
                Json.compact(o.toJson()));
    }

    @Test
    void an_injected_broken_tool_call_is_repaired_from_the_repair_cassette_or_else_the_op_cassette() throws Exception {
        assertEquals("repaired", path(run(project("[bad_tool_call]", false, true))));
        assertEquals("op", path(run(project("[bad_tool_call]", false, false))));
    }
}
