package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.bedrock.backends.BedrockBackend;
import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.SseException;
import com.anthropic.models.messages.RawContentBlockDeltaEvent;
import com.anthropic.models.messages.RawMessageStreamEvent;
import dev.resilienceharness.cassette.CassetteMiss;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.proxy.ReplayProxy;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.StreamTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.StringNode;

/**
 * {@code messages().createStreaming} through anthropic-java's Bedrock backend: recorded from a loopback Bedrock that
 * answers {@code invoke-with-response-stream} in AWS event-stream frames, then replayed as such frames, one
 * {@code chunk} per Messages event, with the stream faults, each met as the backend and the SDK surface it.
 */
class BedrockStreamingTest {

    private static final String MODEL = HarnessAnthropicBedrockTest.MODEL;

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.anthropic.CarefulStreamingLoop
            policy: {max_attempts: 3, base_delay: 200ms, max_total_wait: 30s}
            scenarios:
              - {name: clean, ops: [plan, patch], faults: []}
              - {name: cut-after-text, ops: [plan], faults: [{stream_cut: {after_events: 3}}, none]}
              - name: overloaded-after-text
                ops: [plan]
                faults: [{stream_error: {after_events: 4, error: overloaded_error}}, none]
              - name: model-error-after-text
                ops: [plan]
                faults: [{stream_error: {after_events: 4}}, none]
              - name: throttled-before-text
                ops: [plan]
                faults: [{stream_error: {after_events: 2, error: throttlingException}}, none]
              - {name: stall-before-text, ops: [plan], faults: [{stream_stall: {after_events: 2, ms: 700000}}, none]}
              - {name: malformed-before-text, ops: [plan], faults: [{malformed_event: {at: 2}}, none]}
              - {name: slow, ops: [plan], faults: [{slow_first_token: {elapsed_ms: 3500}}]}
              - {name: truncated, ops: [patch], faults: [truncated_tool_call]}
              - {name: unrecorded, ops: [plan]}
            """;

    @TempDir
    Path dir;

    private HarnessConfig config;

    private final List<String> recordedPaths = new ArrayList<>();

    static AnthropicClient client(LoopRun run) {
        return HarnessAnthropic.builder(run).backend(HarnessAnthropicBedrock.backend()).build();
    }

    /** The plan and patch streams, recorded through the Bedrock backend from a loopback Bedrock sending frames. */
    @BeforeEach
    void recordThroughTheBackend() throws Exception {
        config = Rehearsals.project(dir, YAML, null);
        try (BedrockStub bedrock = new BedrockStub()) {
            int recorded = LoopRecorder.prepare(config, () -> new CarefulStreamingLoop(true,
                            BedrockStreamingTest::client, MODEL))
                    .recordMissing(Rehearsals.scenario(config, "clean"),
                            LiveHttp.to(bedrock.baseUrl(), MessagesStub.KEY, Duration.ofSeconds(10)),
                            RecordingRedaction.forConfig(config))
                    .recorded();
            assertEquals(2, recorded);
            recordedPaths.addAll(bedrock.paths());
        }
    }

    @Test
    void theStreamIsRecordedEventByEventAsTheMessagesEventsItsChunksCarry() throws Exception {
        assertEquals(List.of("/model/" + MODEL + "/invoke-with-response-stream",
                "/model/" + MODEL + "/invoke-with-response-stream"), recordedPaths);
        JsonNode plan = cassette("plan");
        assertEquals(MODEL, plan.get("request").get("model").asString());
        assertEquals(true, plan.get("request").get("stream").asBoolean(), "the path's streaming, in the request");
        assertEquals("Allow a plus sign in the local part.", plan.get("response").get("content").get(0).get("text")
                .asString());
        JsonNode events = plan.get("stream").get("events");
        assertEquals(StreamingTest.TEXT_EVENTS, events.size(), events.toString());
        assertEquals("message_start", events.get(0).get("event").asString());
        assertEquals("content_block_delta", events.get(2).get("event").asString());
        assertEquals("message_stop", events.get(events.size() - 1).get("event").asString());
        assertTrue(events.get(events.size() - 1).get("at_ms").asLong() - events.get(0).get("at_ms").asLong()
                >= 40, "the gaps between frames (10 ms each) were recorded: " + events);
        assertEquals("src/main/java/EmailValidator.java", cassette("patch").get("response").get("content").get(0)
                .get("input").get("path").asString(), "the input_json_delta chunks, read as the tool's input");
    }

    @Test
    void aStreamedTextAndAToolUseReplayThroughTheBackendsOwnDecoding() throws Exception {
        List<String> seen = new ArrayList<>();
        ScenarioResult result = check("clean", run -> {
            seen.clear(); // the events of this run only
            AnthropicClient client = client(run);
            List<Outcome> outcomes = new ArrayList<>();
            for (String op : run.ops()) {
                try (var scope = run.op(op)) {
                    StringBuilder text = new StringBuilder();
                    StringBuilder input = new StringBuilder();
                    try (StreamResponse<RawMessageStreamEvent> stream = client.messages()
                            .createStreaming(FixAgent.params(op, MODEL))) {
                        stream.stream().forEach(e -> {
                            seen.add(op);
                            e.contentBlockDelta().map(RawContentBlockDeltaEvent::delta).ifPresent(d -> {
                                d.text().ifPresent(t -> text.append(t.text()));
                                d.inputJson().ifPresent(j -> input.append(j.partialJson()));
                            });
                        });
                    }
                    outcomes.add(Outcome.ok(op, StringNode.valueOf(text.length() > 0 ? text.toString()
                            : Json.readTree(input.toString()).get("path").asString()), 1));
                }
            }
            return outcomes;
        });

        assertEquals(List.of(), result.violations());
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
        assertEquals("src/main/java/EmailValidator.java", result.trace().outcomes().get(1).value().asString());
        assertEquals(List.of(StreamingTest.TEXT_EVENTS, 8), result.trace().streams().stream()
                .map(StreamTrace::arrived).toList(), "every chunk reached the backend");
        assertEquals(StreamingTest.TEXT_EVENTS + 8, seen.size(), "and every event the SDK parsed");
        assertEquals(List.of(CallRecord.Result.OK, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList());
    }

    @Test
    void anOverloadedErrorInsideAChunkAfterTextIsTheSdksSseExceptionAndACarefulLoopKeepsTheText() {
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = careful("overloaded-after-text", true, loop);

        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one attempt: the 200 passed the SDK's retry layer, and the loop did not retry");
        SseException e = assertInstanceOf(SseException.class, loop.get().broken.get(0),
                "the backend turned the chunk back into an event: error, which the SDK's parser threw on");
        assertTrue(e.getMessage().contains("overloaded_error"), e.getMessage());
        StreamTrace stream = result.trace().streams().get(0);
        assertEquals("error_event", stream.end());
        assertEquals("Allow a plus", stream.partialText());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals("Allow a plus", plan.value().asString(), "the emitted text, kept");
    }

    @Test
    void aLoopThatRetriesAfterTextOfAnInStreamOverloadedErrorFailsUnderPartialWork() {
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = careful("overloaded-after-text", false, loop);

        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry, never the SDK's");
        assertInstanceOf(SseException.class, loop.get().broken.get(0));
        assertEquals("Allow a plusAllow a plus sign in the local part.",
                result.trace().outcomes().get(0).value().asString(), "the text emitted twice");
        List<Violation> partial = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.PARTIAL_WORK).toList();
        assertEquals(1, partial.size(), result.violations().toString());
        assertEquals("its outcome repeats text that had already arrived before the stream was ended by an error event"
                + " after 5 events: \"Allow a plus\" appears 2 times in it", partial.get(0).message());
    }

    @Test
    void bedrocksModelStreamErrorExceptionFrameIsTheSdksSseExceptionNamingIt() {
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = careful("model-error-after-text", true, loop);

        assertEquals(List.of(), result.violations());
        SseException e = assertInstanceOf(SseException.class, loop.get().broken.get(0),
                "the backend turned Bedrock's exception frame into an event: error");
        assertTrue(e.getMessage().contains("modelStreamErrorException"), e.getMessage());
        assertEquals("error_event", result.trace().streams().get(0).end());
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList());
        assertEquals("Allow a plus", result.trace().outcomes().get(0).value().asString());
    }

    @Test
    void aThrottlingExceptionFrameBeforeAnyTextIsRetriedByTheCarefulLoopAndNeverByTheSdk() {
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = careful("throttled-before-text", true, loop);

        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "no text had arrived: the loop retried, the SDK did not");
        result.trace().calls().forEach(c -> assertEquals(0, c.sdkRetry()));
        SseException e = assertInstanceOf(SseException.class, loop.get().broken.get(0));
        assertTrue(e.getMessage().contains("throttlingException"), e.getMessage());
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
    }

    @Test
    void aCutAfterTextReachesTheLoopThroughTheBackendsDecoderAndACarefulLoopKeepsTheText() {
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = careful("cut-after-text", true, loop);

        AnthropicIoException seen = assertInstanceOf(AnthropicIoException.class, loop.get().broken.get(0),
                "the SDK's own I/O failure, as on a dropped connection");
        assertEquals("Stream failed", seen.getMessage());
        assertEquals("Failed to decode Bedrock event stream", seen.getCause().getMessage(),
                "the backend's decoding thread met the cut and handed it to the reader");
        assertTrue(seen.getCause().getCause().getMessage().contains("the stream was cut after 3 events"),
                seen.getCause().getCause().toString());
        StreamTrace cut = result.trace().streams().get(0);
        assertEquals("cut", cut.end());
        assertEquals("Allow", cut.partialText());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals("Allow", plan.value().asString());
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "a stream broken after its headers is never the SDK's to retry");
    }

    @Test
    void aStallPastTheReadTimeoutBreaksTheBackendsDecoderOnTheVirtualClockAndIsRetriedBeforeText() {
        long t0 = System.nanoTime();
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = careful("stall-before-text", true, loop);

        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList());
        AnthropicIoException seen = assertInstanceOf(AnthropicIoException.class, loop.get().broken.get(0));
        assertEquals("Failed to decode Bedrock event stream", seen.getCause().getMessage());
        assertInstanceOf(java.net.SocketTimeoutException.class, seen.getCause().getCause());
        StreamTrace stalled = result.trace().streams().get(0);
        assertEquals("stalled", stalled.end());
        assertTrue(stalled.endNanos() >= Duration.ofMinutes(10).toNanos(),
                "the SDK's default 10-minute timeout passed on the virtual clock");
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L);
    }

    @Test
    void aMalformedEventInAChunkBreaksTheBackendsDecoderAndIsRetriedBeforeText() {
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = careful("malformed-before-text", true, loop);

        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList());
        AnthropicIoException seen = assertInstanceOf(AnthropicIoException.class, loop.get().broken.get(0));
        assertEquals("Failed to decode Bedrock event stream", seen.getCause().getMessage(),
                "the backend's JSON parser met the chunk's event: " + seen.getCause().getCause());
        assertEquals("malformed_event", result.trace().streams().get(0).end());
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
    }

    @Test
    void aSlowFirstTokenDelaysTheFirstFrameOnTheVirtualClock() {
        ScenarioResult result = careful("slow", true, new AtomicReference<>());

        assertEquals(List.of("its outcome lacks elapsed_ms, which a slow first token (3500 ms, threshold 2000 ms)"
                + " requires"), result.violations().stream().map(Violation::message).toList(),
                "the policy table's slow row, which this loop does not report");
        assertEquals(3_500_000_000L, result.trace().streams().get(0).eventNanos().get(0));
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
    }

    @Test
    void aTruncatedToolCallStopsTheInputJsonDeltaChunksMidJson() {
        List<String> inputs = new ArrayList<>();
        ScenarioResult result = check("truncated", run -> {
            inputs.clear(); // this run's only
            try (var scope = run.op("patch");
                    StreamResponse<RawMessageStreamEvent> stream = client(run).messages()
                            .createStreaming(FixAgent.params("patch", MODEL))) {
                StringBuilder input = new StringBuilder();
                stream.stream().forEach(e -> e.contentBlockDelta().map(RawContentBlockDeltaEvent::delta)
                        .flatMap(d -> d.inputJson()).ifPresent(j -> input.append(j.partialJson())));
                inputs.add(input.toString());
                return List.of(Outcome.degraded("patch", "schema", 1));
            }
        });

        String input = inputs.get(0);
        assertTrue(input.startsWith("{\"path\":\"src/main/java/Email") && input.endsWith("{\"broken\": \""), input);
        assertEquals(List.of(CallRecord.Result.SCHEMA), result.trace().calls().stream().map(CallRecord::result)
                .toList());
        assertEquals("done", result.trace().streams().get(0).end(), "the stream itself ended with message_stop");
    }

    @Test
    void serveAnswersAProductionClientOnTheBedrockBackendWithTheRecordedChunksAndTheInStreamError()
            throws Exception {
        List<String> log = new ArrayList<>();
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("overloaded-after-text").timeFactor(0)
                .log(log::add).build().start()) {
            AnthropicClient client = AnthropicOkHttpClient.builder()
                    .backend(BedrockBackend.builder().apiKey("production-key").region(HarnessAnthropicBedrock.REGION)
                            .baseUrl("http://127.0.0.1:" + proxy.port()).build())
                    .maxRetries(0).build();
            StringBuilder text = new StringBuilder();
            SseException e = assertThrows(SseException.class, () -> read(client, text),
                    "the first stream breaks with Anthropic's error inside a chunk, as the SDK surfaces it");
            assertTrue(e.getMessage().contains("overloaded_error"), e.getMessage());
            assertEquals("Allow a plus", text.toString());

            text.setLength(0);
            read(client, text);
            assertEquals("Allow a plus sign in the local part.", text.toString(), "then the recorded stream, whole");
            client.close();
        }
        assertEquals(2, log.size(), log.toString());
        assertTrue(log.get(0).contains("invoke-with-response-stream"), log.get(0));
    }

    private static void read(AnthropicClient client, StringBuilder text) {
        try (StreamResponse<RawMessageStreamEvent> stream = client.messages()
                .createStreaming(FixAgent.params("plan", MODEL))) {
            stream.stream().forEach(e -> e.contentBlockDelta().map(RawContentBlockDeltaEvent::delta)
                    .flatMap(d -> d.text()).ifPresent(t -> text.append(t.text())));
        }
    }

    @Test
    void aStreamNoCassetteAnswersIsACassetteViolationNamingTheOp() {
        List<RuntimeException> thrown = new ArrayList<>();
        ScenarioResult result = check("unrecorded", run -> {
            try (var scope = run.op("plan")) {
                // Not the recorded request: a larger max_tokens.
                client(run).messages().createStreaming(FixAgent.params("plan", MODEL).toBuilder().maxTokens(1024)
                        .build()).stream().count();
                return List.of(Outcome.ok("plan", null, 1));
            } catch (RuntimeException e) {
                thrown.add(e);
                throw e;
            }
        });

        assertEquals(CassetteMiss.class, thrown.get(0).getClass(), "the miss comes through the SDK untouched");
        List<Violation> cassettes = result.violations().stream().filter(v -> v.invariant() == Invariant.CASSETTES)
                .toList();
        assertEquals(1, cassettes.size(), result.violations().toString());
        assertTrue(cassettes.get(0).message().startsWith("no cassette for op 'plan': looked for "),
                cassettes.get(0).message());
        assertTrue(cassettes.get(0).message().contains("max_tokens"), cassettes.get(0).message());
        assertTrue(cassettes.get(0).message().contains("run mvn resilience:record"), cassettes.get(0).message());
    }

    private ScenarioResult check(String scenario, AgentLoop loop) {
        try {
            return Rehearsal.prepare(config, () -> loop).check(Rehearsals.scenario(config, scenario), 1,
                    Rehearsal.RUN_INVARIANTS);
        } catch (dev.resilienceharness.scenario.SetupException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private ScenarioResult careful(String scenario, boolean careful, AtomicReference<CarefulStreamingLoop> loop) {
        return check(scenario, run -> {
            CarefulStreamingLoop l = new CarefulStreamingLoop(careful, BedrockStreamingTest::client, MODEL);
            loop.set(l);
            return l.run(run);
        });
    }

    private JsonNode cassette(String op) throws IOException {
        List<JsonNode> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(config.cassettes())) {
            for (Path f : files.toList()) {
                JsonNode c = Json.readTree(Files.readAllBytes(f));
                if (op.equals(c.path("op").asString(""))) {
                    found.add(c);
                }
            }
        }
        assertEquals(1, found.size(), op);
        return found.get(0);
    }
}
