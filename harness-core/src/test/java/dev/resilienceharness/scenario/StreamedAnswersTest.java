package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.CassetteStream;
import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.BuiltinLoop;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.StreamTrace;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Streamed answers replayed chunk by chunk on the virtual clock through a run's HTTP endpoint, with the stream faults,
 * the built-in loop's policy for them and the duplicated-text check.
 */
class StreamedAnswersTest {

    private static final String YAML = """
            version: 1
            loop: com.acme.StreamLoop
            policy: {max_attempts: 3, base_delay: 100ms, max_total_wait: 30s}
            requests:
              plan: {model: m, stream: true, messages: [{role: user, content: plan}]}
            scenarios:
              - {name: cut-then-ok, ops: [plan], faults: [{stream_cut: {after_events: 3}}, none]}
              - {name: stall-long, ops: [plan], faults: [{stream_stall: {after_events: 2, ms: 90000}}, none]}
              - {name: stall-short, ops: [plan], faults: [{stream_stall: {after_events: 2, ms: 700}}]}
              - {name: error-event, ops: [plan], faults: [{stream_error: {after_events: 2}}, none]}
              - {name: malformed, ops: [plan], faults: [{malformed_event: {at: 1}}, none]}
              - {name: truncated, ops: [plan], faults: [truncated_tool_call]}
              - {name: slow, ops: [plan], faults: [{slow_first_token: {elapsed_ms: 3000}}]}
              - {name: cut-always, ops: [plan], faults: [{stream_cut: {after_events: 2}}, {stream_cut: {after_events: 2}}, {stream_cut: {after_events: 2}}]}
            """;

    private static final String BODY = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\","
            + "\"content\":\"plan\"}]}";
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static String chunk(String deltaJson, String finish) {
        return "{\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":" + deltaJson + ",\"finish_reason\":" + finish + "}]}";
    }

    private HarnessConfig project() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        ObjectNode completion = (ObjectNode) Json.readTree("{\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":\"Hello there, friend.\"},\"finish_reason\":\"stop\"}]}");
        List<StreamEvent> events = List.of(
                new StreamEvent(100, chunk("{\"role\":\"assistant\",\"content\":\"\"}", "null")),
                new StreamEvent(150, chunk("{\"content\":\"Hello\"}", "null")),
                new StreamEvent(200, chunk("{\"content\":\" there,\"}", "null")),
                new StreamEvent(250, chunk("{\"content\":\" friend.\"}", "null")),
                new StreamEvent(300, chunk("{}", "\"stop\"")),
                new StreamEvent(320, "[DONE]"));
        store.write((ObjectNode) Json.readTree(BODY), completion, new Timing(150L, 320L), null,
                new CassetteStream(events));
        return config;
    }

    /** A team's streaming loop over the run's HTTP: reads the events as they come, retries a broken stream. */
    static final class StreamLoop implements AgentLoop {
        final boolean keepsPartialText;

        StreamLoop(boolean keepsPartialText) {
            this.keepsPartialText = keepsPartialText;
        }

        @Override
        public List<Outcome> run(dev.resilienceharness.loop.LoopRun run) {
            StringBuilder emitted = new StringBuilder();
            int attempts = 0;
            try (var scope = run.op("plan")) {
                while (attempts < 3) {
                    attempts++;
                    if (!keepsPartialText) {
                        emitted.setLength(0);
                    }
                    HttpEndpoint http = run.http();
                    HttpAnswer.Response r = (HttpAnswer.Response) http.exchange(new HttpAttempt("acme-sdk 1.0", "POST",
                            "chat/completions", Map.of(), BODY.getBytes(StandardCharsets.UTF_8), READ_TIMEOUT, 0));
                    try (BufferedReader in = new BufferedReader(new InputStreamReader(http.body(r, READ_TIMEOUT),
                            StandardCharsets.UTF_8))) {
                        String line;
                        boolean done = false;
                        while ((line = in.readLine()) != null) {
                            if (!line.startsWith("data: ")) {
                                continue;
                            }
                            String data = line.substring(6);
                            if (data.equals("[DONE]")) {
                                done = true;
                                break;
                            }
                            JsonNode chunk = Json.readTree(data);
                            if (chunk.has("error")) {
                                throw new IOException("stream error");
                            }
                            JsonNode content = chunk.path("choices").path(0).path("delta").path("content");
                            if (content.isString()) {
                                emitted.append(content.asString());
                            }
                        }
                        if (done) {
                            return List.of(Outcome.ok("plan", StringNode.valueOf(emitted.toString()), attempts)
                                    .streamed(0, keepsPartialText ? Outcome.KEPT : Outcome.DROPPED));
                        }
                    } catch (IOException | RuntimeException e) {
                        run.sleeper().sleep(run.policy().backoff(attempts));
                    }
                }
            }
            return List.of(Outcome.degraded("plan", "timeout", attempts));
        }
    }

    private ScenarioResult check(String scenario, AgentLoop loop) throws Exception {
        HarnessConfig config = project();
        return Rehearsal.prepare(config, () -> loop).check(scenario(config, scenario), 2, Rehearsal.RUN_INVARIANTS);
    }

    private static List<CallRecord.Result> results(ScenarioResult r) {
        return r.trace().calls().stream().map(CallRecord::result).toList();
    }

    @Test
    void aCutStreamIsRetriedAndTheTextAssembledOnce() throws Exception {
        ScenarioResult r = check("cut-then-ok", new StreamLoop(false));
        assertEquals(List.of(), r.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), results(r));
        assertEquals("Hello there, friend.", r.trace().outcomes().get(0).value().asString());
        StreamTrace cut = r.trace().streams().get(0);
        assertEquals("cut", cut.end());
        assertEquals(3, cut.arrived());
        assertEquals(List.of(100_000_000L, 150_000_000L, 200_000_000L), cut.eventNanos(),
                "each event at its recorded offset on the virtual clock");
        assertEquals("Hello there,", cut.partialText());
        StreamTrace whole = r.trace().streams().get(1);
        assertEquals("done", whole.end());
        assertEquals(6, whole.arrived());
        // The retry came after the loop's 100 ms backoff, after the cut at 200 ms; its events are offset from there.
        assertEquals(300_000_000L + 100_000_000L, whole.eventNanos().get(0));
        assertEquals(Duration.ofMillis(100), r.trace().totalWait(), "stream time is not waiting");
    }

    @Test
    void aLoopThatKeepsThePartialTextAndAppendsTheRetryIsReported() throws Exception {
        ScenarioResult r = check("cut-then-ok", new StreamLoop(true));
        assertEquals("Hello there,Hello there, friend.", r.trace().outcomes().get(0).value().asString());
        assertEquals(1, r.violations().size(), r.violations().toString());
        Violation v = r.violations().get(0);
        assertEquals(Invariant.PARTIAL_WORK, v.invariant());
        assertEquals("plan", v.op());
        assertEquals("at most 1 time", v.bound());
        assertEquals("2 times", v.actual());
        assertEquals("its outcome repeats text that had already arrived before the stream was cut after 3 events:"
                + " \"Hello there,\" appears 2 times in it", v.message());
        assertTrue(v.hint().startsWith("Drop the partial text of a broken stream before retrying"), v.hint());
    }

    @Test
    void aStallPastTheReadTimeoutIsTheSdksTimeoutAndAShortOneOnlyALateStream() throws Exception {
        ScenarioResult longStall = check("stall-long", new StreamLoop(false));
        assertEquals(List.of(), longStall.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), results(longStall));
        StreamTrace stalled = longStall.trace().streams().get(0);
        assertEquals("stalled", stalled.end());
        assertEquals(2, stalled.arrived());
        assertEquals(150_000_000L + READ_TIMEOUT.toNanos(), stalled.endNanos(), "given up after the read timeout");

        ScenarioResult shortStall = check("stall-short", new StreamLoop(false));
        assertEquals(List.of(CallRecord.Result.OK), results(shortStall));
        assertEquals(List.of(100L, 150L, 900L, 950L, 1000L, 1020L), shortStall.trace().streams().get(0).eventNanos()
                .stream().map(n -> n / 1_000_000L).toList(), "the events after the stall come 700 ms late");
    }

    @Test
    void anErrorEventAndAMalformedEventBreakTheStream() throws Exception {
        ScenarioResult error = check("error-event", new StreamLoop(false));
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), results(error));
        assertEquals("error_event", error.trace().streams().get(0).end());
        assertEquals(3, error.trace().streams().get(0).arrived(), "two events, then the error event");
        ScenarioResult malformed = check("malformed", new StreamLoop(false));
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), results(malformed));
        assertEquals("malformed_event", malformed.trace().streams().get(0).end());
        assertEquals(List.of(), malformed.violations());
    }

    @Test
    void aLateFirstEventMovesTheWholeStream() throws Exception {
        ScenarioResult r = check("slow", new StreamLoop(false));
        assertEquals(List.of(3000L, 3050L, 3100L, 3150L, 3200L, 3220L), r.trace().streams().get(0).eventNanos()
                .stream().map(n -> n / 1_000_000L).toList());
        assertEquals(3000L, r.trace().calls().get(0).firstTokenMs());
    }

    @Test
    void aTruncatedToolCallStreamsToDoneAndIsASchemaFailure() throws Exception {
        HarnessConfig config = project();
        List<String> data = new ArrayList<>();
        AgentLoop reader = run -> {
            data.clear(); // each run reads the stream afresh
            try (var scope = run.op("plan")) {
                HttpAnswer.Response r = (HttpAnswer.Response) run.http().exchange(new HttpAttempt("acme-sdk 1.0",
                        "POST", "chat/completions", Map.of(), BODY.getBytes(StandardCharsets.UTF_8), null, 0));
                try (BufferedReader in = new BufferedReader(new InputStreamReader(run.http().body(r, null),
                        StandardCharsets.UTF_8))) {
                    in.lines().filter(l -> l.startsWith("data: ")).forEach(l -> data.add(l.substring(6)));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            return List.of(Outcome.degraded("plan", "schema", 1));
        };
        ScenarioResult r = Rehearsal.prepare(config, () -> reader).check(scenario(config, "truncated"), 1,
                Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(CallRecord.Result.SCHEMA), results(r));
        assertEquals("[DONE]", data.get(data.size() - 1), "the stream ends normally");
        StringBuilder args = new StringBuilder();
        for (String d : data.subList(0, data.size() - 1)) {
            Json.readTree(d).path("choices").path(0).path("delta").path("tool_calls").forEach(
                    c -> args.append(c.path("function").path("arguments").asString("")));
        }
        assertTrue(args.length() > 0, data.toString());
        org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> Json.readTree(args.toString()),
                "the arguments stop mid-JSON: " + args);
    }

    @Test
    void theBuiltinLoopRetriesACutAsTransientAndRecordsTheEventsAndTheDroppedText() throws Exception {
        HarnessConfig config = project();
        Rehearsal builtin = Rehearsal.prepare(config, BuiltinLoop::new);
        ScenarioResult ok = builtin.check(scenario(config, "cut-then-ok"), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), ok.violations());
        Outcome plan = ok.trace().outcomes().get(0);
        assertEquals(Status.OK, plan.status());
        assertEquals(2, plan.attempts());
        assertEquals(3, plan.streamEvents());
        assertEquals(Outcome.DROPPED, plan.partialText());
        assertEquals("{\"op\":\"plan\",\"status\":\"ok\",\"value\":" + Json.compact(plan.value()) + ",\"attempts\":2,"
                + "\"stream_events\":3,\"partial_text\":\"dropped\"}", Json.compact(plan.toJson()));
        ScenarioResult cut = builtin.check(scenario(config, "cut-always"), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), cut.violations());
        Outcome degraded = cut.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, degraded.status());
        assertEquals(3, degraded.attempts(), "max_attempts");
        assertEquals(2, degraded.streamEvents());
        ScenarioResult truncated = builtin.check(scenario(config, "truncated"), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(CallRecord.Result.SCHEMA, truncated.trace().calls().get(0).result(), "a schema failure");
        assertEquals(Status.OK, truncated.trace().outcomes().get(0).status(), "repaired by the one repair call");
        assertEquals(2, truncated.trace().outcomes().get(0).attempts());
        assertNull(truncated.trace().outcomes().get(0).streamEvents(), "no stream broke");
    }

    @Test
    void aStreamOfARequestRecordedWholeIsAnsweredFromThatCassetteSplitAsAProviderSplitsIt() throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                loop: com.acme.StreamLoop
                policy: {max_attempts: 3, base_delay: 100ms, max_total_wait: 30s}
                scenarios:
                  - {name: cut-then-ok, ops: [plan], faults: [{stream_cut: {after_events: 2}}, none]}
                """);
        ObjectNode whole = (ObjectNode) Json.readTree(BODY);
        whole.remove("stream");
        CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of())).write(whole, Json.readTree(
                "{\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
                + "\"Hello there, friend.\"},\"finish_reason\":\"stop\"}]}"), new Timing(150L, 320L), "plan");

        ScenarioResult r = Rehearsal.prepare(config, () -> new StreamLoop(false)).check(scenario(config,
                "cut-then-ok"), 2, Rehearsal.RUN_INVARIANTS);

        assertEquals(List.of(), r.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), results(r));
        assertEquals("Hello there, friend.", r.trace().outcomes().get(0).value().asString());
        assertEquals("cut", r.trace().streams().get(0).end(), "the stream faults strike the split answer");
        assertEquals("done", r.trace().streams().get(1).end());
    }
}
