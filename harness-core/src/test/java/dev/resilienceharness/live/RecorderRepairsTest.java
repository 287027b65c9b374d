package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.live.RecordSummary.Result;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** record records the repair of a broken tool call, and replay answers the repair from its own cassette. */
class RecorderRepairsTest {

    static final String INSTRUCTION = "Your last tool call broke its schema. Reply with one valid apply_patch call.";

    @TempDir
    Path dir;

    private ProviderStub stub;

    @BeforeEach
    void start() throws Exception {
        stub = ProviderStub.start();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    private HarnessConfig config(String instruction) throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, """
                version: 1
                policy:
                  max_total_wait: 30s
                  schema: {repair_attempts: 1%s}
                requests:
                  patch: {model: m, messages: [{role: user, content: write the patch}]}
                scenarios:
                  - name: recorded-repair
                    ops: [patch]
                    expect: {status: [ok], attempts: [2]}
                provider:
                  base_url: %s
                  api_key_env: PROVIDER_API_KEY
                """.formatted(instruction == null ? "" : ", repair_instruction: \"" + instruction + "\"",
                stub.baseUrl()), StandardCharsets.UTF_8);
        return ConfigLoader.load(yaml);
    }

    private RecordSummary record(HarnessConfig config) throws Exception {
        LiveTransport live = LiveTransport.connect(config.provider(), Map.of("PROVIDER_API_KEY", "k")::get,
                Duration.ofSeconds(2), Duration.ofSeconds(2));
        return new Recorder(config, Mode.RECORD_MISSING, live, UnaryOperator.identity()).record();
    }

    @Test
    void a_recorded_broken_tool_call_followed_by_a_recorded_repair_passes_with_two_attempts() throws Exception {
        HarnessConfig config = config(INSTRUCTION);
        stub.then(ProviderStub.ok(ProviderStub.toolCall("apply_patch", "{\"path\":")),
                ProviderStub.ok(ProviderStub.toolCall("apply_patch", "{\"path\": \"a.py\"}")));

        RecordSummary summary = record(config);

        assertEquals(List.of("patch", "patch (repair)"), summary.entries().stream().map(RecordSummary.Entry::op)
                .toList());
        assertEquals(2, summary.count(Result.RECORDED), summary.toString());
        ObjectNode repairSent = stub.received().get(1).json();
        assertFalse(repairSent.has("repair"), "the marker is the harness's; the provider never sees it");
        assertEquals(INSTRUCTION, repairSent.get("messages").get(1).get("content").asString());
        assertEquals("user", repairSent.get("messages").get(1).get("role").asString());

        stub.close(); // offline from here on
        CassetteIntegrity.Report integrity = CassetteIntegrity.check(config, true);
        assertEquals(List.of(), integrity.violations(), "the repair's cassette is no orphan");
        ScenarioResult result = Rehearsal.prepare(config, LoopFactory.builtin())
                .check(config.scenarios().get(0), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), result.violations());
        assertEquals(Status.OK, result.trace().outcomes().get(0).status());
        assertEquals(2, result.trace().outcomes().get(0).attempts());
    }

    @Test
    void a_second_record_missing_pass_sends_nothing() throws Exception {
        HarnessConfig config = config(INSTRUCTION);
        stub.then(ProviderStub.ok(ProviderStub.toolCall("apply_patch", "{\"path\":")),
                ProviderStub.ok(ProviderStub.toolCall("apply_patch", "{\"path\": \"a.py\"}")));
        record(config);
        RecordSummary again = record(config);
        assertEquals(2, again.count(Result.PRESENT), again.toString());
        assertEquals(2, stub.received().size());
    }

    @Test
    void without_an_instruction_the_repair_is_the_same_request_and_is_not_sent_again() throws Exception {
        HarnessConfig config = config(null);
        stub.then(ProviderStub.ok(ProviderStub.toolCall("apply_patch", "{\"path\":")));
        RecordSummary summary = record(config);
        assertEquals(List.of("patch"), summary.entries().stream().map(RecordSummary.Entry::op).toList());
        stub.close();
        ScenarioResult result = Rehearsal.prepare(config, LoopFactory.builtin())
                .check(config.scenarios().get(0), 1, Rehearsal.RUN_INVARIANTS);
        assertEquals(Status.DEGRADED, result.trace().outcomes().get(0).status(),
                "the op's own broken answer replies to the repair too");
        assertEquals(2, result.trace().outcomes().get(0).attempts());
    }
}
