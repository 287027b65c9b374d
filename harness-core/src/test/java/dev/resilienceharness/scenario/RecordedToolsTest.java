package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.ToolRecording;
import dev.resilienceharness.cassette.ToolRecordings;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.HttpForwarder;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.ToolRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * {@code replay: recorded} tools through {@code run.tool}: recorded once by {@code resilience:record}, replayed by
 * every rehearsal without running the team's code, a miss failing the run under cassettes.
 */
class RecordedToolsTest {

    private static final String YAML = """
            version: 1
            loop: com.acme.SdkLoop
            policy: {max_total_wait: 30s}
            tools:
              refund: {side_effects: true, replay: recorded, idempotency_key: /order}
              lookup: {replay: live}
            scenarios:
              - {name: calm, ops: [plan], faults: []}
              - name: committed_then_lost
                ops: [plan]
                tool_faults: {refund: [timeout_after_commit]}
            """;

    private static final String KEY = "sk-proj-FAKEabcdefghijklmnop0123456789";

    /** A provider the recording must never reach: the op's cassette answers the loop's only call. */
    private static final HttpForwarder NO_PROVIDER = attempt -> {
        throw new AssertionError("nothing is sent: the op's cassette answers the loop");
    };

    @TempDir
    Path dir;

    /**
     * A loop that calls {@code plan}, then refunds order A1 twice (the same logical call, its arguments in another
     * order the second time) and looks the order up (a live tool); its outcome is the refund's result.
     */
    private static AgentLoop loop(AtomicInteger refunds, AtomicInteger lookups, String refundResult) {
        return run -> {
            String first;
            try (var scope = run.op("plan")) {
                run.transport().call(run.request("plan"));
                first = run.tool("refund", "{\"order\": \"A1\", \"amount\": 5}", () -> {
                    refunds.incrementAndGet();
                    return refundResult;
                });
                run.tool("refund", "{\"amount\":5,\"order\":\"A1\"}", () -> {
                    refunds.incrementAndGet();
                    return refundResult;
                });
                run.tool("lookup", "{\"order\":\"A1\"}", () -> {
                    lookups.incrementAndGet();
                    return "{\"status\":\"paid\"}";
                });
            } catch (Exception e) {
                return List.of(Outcome.degraded("plan", e.getClass().getSimpleName() + ": " + e.getMessage(), 1));
            }
            return List.of(Outcome.ok("plan", JsonNodeFactory.instance.stringNode(first), 1));
        };
    }

    private static LoopFactory loops(AgentLoop loop) {
        return () -> loop;
    }

    private static final Clock AT = Clock.fixed(Instant.parse("2026-12-07T05:00:00.400Z"), ZoneOffset.UTC);

    private List<Path> toolFiles() throws Exception {
        Path folder = dir.resolve("cassettes").resolve("tools");
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.sorted().toList();
        }
    }

    @Test
    void theToolRunsOnceWhenRecordedAndNeverWhenReplayed() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        AtomicInteger refunds = new AtomicInteger();
        AtomicInteger lookups = new AtomicInteger();
        AgentLoop loop = loop(refunds, lookups, "{\"refund_id\":\"r-1\"}");

        LoopRecorder.Recording recording = LoopRecorder.prepare(config, loops(loop)).recordMissing(
                scenario(config, "calm"), NO_PROVIDER, RecordingRedaction.forConfig(config), AT);

        assertEquals(1, refunds.get(), "recorded once: the repeated call is answered by the recording just written");
        assertEquals(1, lookups.get(), "a live tool runs as always");
        String fp = ToolRecording.fingerprint("refund", Json.readTree("{\"order\":\"A1\",\"amount\":5}"));
        assertEquals(List.of(new LoopRecorder.RecordedTool("refund", "cassettes/tools/" + fp + ".json")),
                recording.tools());
        assertEquals("tool refund: recorded cassettes/tools/" + fp + ".json", recording.tools().get(0).line());
        assertEquals(List.of(dir.resolve("cassettes/tools/" + fp + ".json")), toolFiles());
        assertEquals("""
                {
                  "tool": "refund",
                  "arguments": {
                    "order": "A1",
                    "amount": 5
                  },
                  "result": "{\\"refund_id\\":\\"r-1\\"}",
                  "recorded_at": "2026-12-07T05:00:00Z"
                }""", Files.readString(toolFiles().get(0)).strip());
        List<ToolRecord> recorded = recording.trace().tools();
        assertFalse(recorded.get(0).replayed(), "at record time the tool's own code ran");
        assertTrue(recorded.get(1).replayed());
        assertEquals(recorded.get(0).fingerprint(), fp, "the file is named by the record's fingerprint");

        Rehearsal rehearsal = Rehearsal.prepare(config, loops(loop));
        RunTrace calm = rehearsal.run(scenario(config, "calm"), null);
        assertNull(calm.failure());
        assertEquals("{\"refund_id\":\"r-1\"}", calm.outcomes().get(0).value().asString());
        assertEquals(1, refunds.get(), "replay runs no refund");
        assertEquals(2, lookups.get(), "a live tool runs the team's code in a rehearsal");
        assertTrue(calm.tools().get(0).replayed());
        assertTrue(calm.tools().get(1).replayed());
        assertFalse(calm.tools().get(2).replayed(), "replay: live is never replayed");
    }

    @Test
    void faultsStillApplyToAReplayedTool() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        AtomicInteger refunds = new AtomicInteger();
        AgentLoop loop = loop(refunds, new AtomicInteger(), "{\"refund_id\":\"r-1\"}");
        LoopRecorder.prepare(config, loops(loop)).recordMissing(scenario(config, "committed_then_lost"), NO_PROVIDER,
                RecordingRedaction.forConfig(config), AT);
        assertEquals(1, refunds.get(), "recording runs the scenario without its tool faults");

        RunTrace lost = Rehearsal.prepare(config, loops(loop)).run(scenario(config, "committed_then_lost"), null);

        assertEquals(1, refunds.get());
        ToolRecord first = lost.tools().get(0);
        assertEquals(ToolRecord.Result.TIMEOUT, first.result());
        assertTrue(first.committed(), "timeout_after_commit commits the recorded result, then times out");
        assertTrue(first.replayed());
        assertEquals("SocketTimeoutException: tool 'refund' timed out after 30s (injected timeout_after_commit: the"
                + " tool had done its work)", lost.outcomes().get(0).reason());
    }

    @Test
    void aMissFailsTheRunUnderCassettesNamingTheToolAndNeverRunsIt() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        AtomicInteger refunds = new AtomicInteger();
        Rehearsal rehearsal = Rehearsal.prepare(config, loops(loop(refunds, new AtomicInteger(), "{}")));

        ScenarioResult result = rehearsal.check(scenario(config, "calm"), 1, Set.of(Invariant.BUDGET));

        assertEquals(0, refunds.get(), "a rehearsal never runs the real tool, recorded or not");
        String fp = ToolRecording.fingerprint("refund", Json.readTree("{\"order\":\"A1\",\"amount\":5}"));
        String message = "no recording of tool 'refund' for these arguments: looked for tools/" + fp + ".json. The"
                + " tool is declared replay: recorded, so rehearsal never runs it: run mvn resilience:record to"
                + " record its result";
        assertEquals(RunTrace.Kind.CASSETTE, result.trace().failure().kind(),
                "the loop caught the miss and degraded; the run fails all the same");
        assertEquals(message, result.trace().failure().message());
        assertEquals(1, result.violations().size());
        assertEquals(Invariant.CASSETTES, result.violations().get(0).invariant());
        assertEquals(message, result.violations().get(0).message());
        assertEquals(ToolRecord.Result.ERROR, result.trace().tools().get(0).result());
        assertFalse(result.trace().tools().get(0).committed());
    }

    @Test
    void aMissNamesTheNearestRecordingOfTheSameToolAndTheArgumentPathsThatDiffer() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        ToolRecordings store = ToolRecordings.recording(dir.resolve("cassettes"), c -> c, null);
        ToolRecording near = store.write("refund", Json.readTree("{\"order\":\"A1\",\"amount\":7}"), "{}");
        store.write("refund", Json.readTree("{\"order\":\"B2\",\"amount\":9}"), "{}");
        store.write("lookup", Json.readTree("{\"order\":\"A1\",\"amount\":5}"), "{}");
        AtomicInteger refunds = new AtomicInteger();

        RunTrace run = Rehearsal.prepare(config, loops(loop(refunds, new AtomicInteger(), "{}")))
                .run(scenario(config, "calm"), null);

        assertEquals(0, refunds.get());
        String fp = ToolRecording.fingerprint("refund", Json.readTree("{\"order\":\"A1\",\"amount\":5}"));
        assertEquals(RunTrace.Kind.CASSETTE, run.failure().kind());
        assertEquals("no recording of tool 'refund' for these arguments: looked for tools/" + fp + ".json; the"
                + " nearest recording of 'refund' is tools/" + near.fingerprint() + ".json, whose arguments differ at"
                + " amount. The tool is declared replay: recorded, so rehearsal never runs it: run mvn"
                + " resilience:record to record its result", run.failure().message(),
                "another tool's recording with the very arguments is not the nearest: only the same tool's are");
    }

    @Test
    void anUnusableRecordingFailsTheRunSayingWhy() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        String fp = ToolRecording.fingerprint("refund", Json.readTree("{\"order\":\"A1\",\"amount\":5}"));
        Path file = dir.resolve("cassettes/tools/" + fp + ".json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"tool\": \"refund\", \"arguments\": {}}");
        AtomicInteger refunds = new AtomicInteger();

        RunTrace run = Rehearsal.prepare(config, loops(loop(refunds, new AtomicInteger(), "{}")))
                .run(scenario(config, "calm"), null);

        assertEquals(0, refunds.get());
        assertEquals(RunTrace.Kind.CASSETTE, run.failure().kind());
        assertEquals("the recording of tool 'refund' (" + fp + ") is unusable: " + file + ": has no \"result\"; a"
                + " tool recording is {\"tool\": \"...\", \"arguments\": ..., \"result\": \"...\"}. Fix the file,"
                + " or delete it and run mvn resilience:record", run.failure().message());
    }

    @Test
    void aSecretInAToolResultIsRedactedBeforeItIsWritten() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        AtomicInteger refunds = new AtomicInteger();
        AgentLoop loop = loop(refunds, new AtomicInteger(), "{\"refund_id\":\"r-1\",\"api_key\":\"" + KEY + "\"}");

        LoopRecorder.prepare(config, loops(loop)).recordMissing(scenario(config, "calm"), NO_PROVIDER,
                RecordingRedaction.forConfig(config), AT);

        String written = Files.readString(toolFiles().get(0), StandardCharsets.UTF_8);
        assertFalse(written.contains(KEY), written);
        assertTrue(written.contains("[REDACTED:openai-key:"), written);
        RunTrace replayed = Rehearsal.prepare(config, loops(loop)).run(scenario(config, "calm"), null);
        assertTrue(replayed.outcomes().get(0).value().asString().contains("[REDACTED:openai-key:"),
                "the rehearsal replays what was written, redacted");
    }

    @Test
    void aToolWhoseCodeThrowsWhenRecordedRecordsNothing() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        AgentLoop throwing = run -> {
            try (var scope = run.op("plan")) {
                run.transport().call(run.request("plan"));
                run.tool("refund", "{\"order\":\"A1\"}", () -> {
                    throw new IllegalStateException("billing is down");
                });
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return List.of();
        };

        LoopRecorder.RecordingFailed failed = assertThrows(LoopRecorder.RecordingFailed.class,
                () -> LoopRecorder.prepare(config, loops(throwing)).recordMissing(scenario(config, "calm"),
                        NO_PROVIDER, RecordingRedaction.forConfig(config), AT));

        assertTrue(failed.getMessage().contains("billing is down"), failed.getMessage());
        assertEquals(List.of(), toolFiles());
    }

    @Test
    void theStoreReadsWhatItWroteAndRefusesWhatIsNoToolRecording() throws Exception {
        ToolRecordings store = ToolRecordings.recording(dir, c -> c, null);
        ToolRecording written = store.write("lookup", JsonNodeFactory.instance.stringNode("not json"), "paid");
        assertEquals(ToolRecording.fingerprint("lookup", JsonNodeFactory.instance.stringNode("not json")),
                written.fingerprint());
        ToolRecording read = ToolRecordings.replaying(dir).get(written.fingerprint());
        assertEquals("paid", read.result());
        assertNull(read.recordedAt());
        assertNull(ToolRecordings.replaying(dir).get("0000000000000000"));
        assertThrows(IllegalStateException.class, () -> ToolRecordings.replaying(dir).write("t", JsonNodeFactory
                .instance.objectNode(), "r"));

        Path bad = dir.resolve("tools/1111111111111111.json");
        Files.writeString(bad, "[1]");
        CassetteException e = assertThrows(CassetteException.class,
                () -> ToolRecordings.replaying(dir).get("1111111111111111"));
        assertEquals("is a JSON array, not an object; a tool recording is {\"tool\": \"...\", \"arguments\": ...,"
                + " \"result\": \"...\"}", e.problem());
        CassetteReader reader = new CassetteReader(dir, VolatilePaths.of(List.of()));
        assertEquals("has a \"result\" that is a JSON number, not the result's text", assertThrows(
                CassetteException.class, () -> ToolRecordings.parse(bad, reader.readTree(bad,
                        "{\"tool\":\"t\",\"arguments\":{},\"result\":1}".getBytes(StandardCharsets.UTF_8))))
                .problem().split("; ")[0]);
    }

    @Test
    void executionsOfOneCallAtOnceAreRecordedOnce() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML, "plan");
        AtomicInteger refunds = new AtomicInteger();
        java.util.concurrent.CyclicBarrier bothAsked = new java.util.concurrent.CyclicBarrier(2);
        AgentLoop parallel = run -> {
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            try (var scope = run.op("plan")) {
                run.transport().call(run.request("plan"));
                java.util.concurrent.Callable<String> refund = () -> {
                    bothAsked.await();
                    return run.tool("refund", "{\"order\":\"A1\"}", () -> {
                        refunds.incrementAndGet();
                        return "r-1";
                    });
                };
                var a = pool.submit(refund);
                var b = pool.submit(refund);
                return List.of(Outcome.ok("plan", JsonNodeFactory.instance.stringNode(a.get() + b.get()), 1));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                pool.shutdown();
            }
        };

        LoopRecorder.Recording recording = LoopRecorder.prepare(config, loops(parallel)).recordMissing(
                scenario(config, "calm"), NO_PROVIDER, RecordingRedaction.forConfig(config), AT);

        assertEquals(1, refunds.get(), "the second execution waits for the first's recording");
        assertEquals("r-1r-1", recording.trace().outcomes().get(0).value().asString());
        assertEquals(1, recording.tools().size());
    }
}
