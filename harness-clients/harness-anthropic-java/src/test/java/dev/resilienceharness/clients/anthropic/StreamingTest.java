package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.SseException;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.report.ReportJson;
import dev.resilienceharness.report.RunReport;
import dev.resilienceharness.report.ScenarioReport;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.StreamTrace;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A Messages stream recorded through anthropic-java's {@code messages().createStreaming} from a provider on
 * 127.0.0.1, with every named event and its timing, then replayed event by event on the virtual clock with the stream
 * faults.
 */
class StreamingTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.anthropic.StreamingLoop
            policy: {max_attempts: 3, base_delay: 200ms, max_total_wait: 30s}
            scenarios:
              - {name: clean, ops: [plan, patch], faults: []}
              - {name: cut-then-ok, ops: [plan], faults: [{stream_cut: {after_events: 3}}, none]}
              - {name: error-event, ops: [plan], faults: [{stream_error: {after_events: 2}}, none]}
              - name: overloaded-after-text
                ops: [plan]
                faults: [{stream_error: {after_events: 4, error: overloaded_error}}, none]
                expect: {status: [degraded], attempts: [1]}
              - {name: api-error-before-text, ops: [plan], faults: [{stream_error: {after_events: 2, error: api_error}}, none]}
              - {name: stall, ops: [plan], faults: [{stream_stall: {after_events: 2, ms: 700000}}, none]}
              - {name: truncated, ops: [patch], faults: [truncated_tool_call]}
              - {name: slow, ops: [plan], faults: [{slow_first_token: {elapsed_ms: 3500}}]}
            """;

    static final List<String> PIECES = List.of("Allow", " a plus", " sign", " in the", " local part.");

    /** message_start, content_block_start, the pieces, content_block_stop, message_delta, message_stop. */
    static final int TEXT_EVENTS = PIECES.size() + 5;

    @TempDir
    Path dir;

    private HarnessConfig config;
    private final AtomicInteger served = new AtomicInteger();

    @BeforeEach
    void recordTheStreamsFromALoopbackProvider() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        HttpServer stub = stub();
        try {
            int recorded = LoopRecorder.prepare(config, StreamingLoop::new).recordMissing(scenario("clean"),
                    LiveHttp.to(URI.create("http://127.0.0.1:" + stub.getAddress().getPort() + "/v1"),
                            MessagesStub.KEY, Duration.ofSeconds(10)), RecordingRedaction.forConfig(config))
                    .recorded();
            assertEquals(2, recorded);
        } finally {
            stub.stop(0);
        }
    }

    @Test
    void theCassetteKeepsEveryNamedEventWithItsOffsetAndTheAssembledMessage() throws Exception {
        JsonNode plan = cassette("plan");
        assertEquals(true, plan.get("request").get("stream").asBoolean(), "anthropic-java asked for a stream");
        assertEquals("message", plan.get("response").get("type").asString());
        assertEquals("Allow a plus sign in the local part.", plan.get("response").get("content").get(0).get("text")
                .asString());
        assertEquals("end_turn", plan.get("response").get("stop_reason").asString());
        JsonNode events = plan.get("stream").get("events");
        assertEquals(TEXT_EVENTS, events.size(), events.toString());
        assertEquals("message_start", events.get(0).get("event").asString());
        assertTrue(!events.get(0).get("data").asString().contains("msg_0"),
                "the volatile response.id is stripped from the message message_start carries too: " + events.get(0));
        assertEquals("content_block_delta", events.get(2).get("event").asString());
        assertEquals("message_stop", events.get(events.size() - 1).get("event").asString());
        assertTrue(events.get(0).get("at_ms").asLong() >= 40, events.toString());
        assertTrue(events.get(events.size() - 1).get("at_ms").asLong() - events.get(0).get("at_ms").asLong()
                >= PIECES.size() * 15, "the gaps between events were recorded: " + events);
        JsonNode patch = cassette("patch");
        assertEquals("ping", patch.get("stream").get("events").get(1).get("event").asString(), "a ping is kept too");
        assertEquals("src/main/java/EmailValidator.java", patch.get("response").get("content").get(0).get("input")
                .get("path").asString(), "the input_json_delta pieces, read as the tool's input");
        assertEquals(2, served.get());

        AtomicReference<StreamingLoop> loop = new AtomicReference<>();
        ScenarioResult clean = check("clean", loop);
        assertEquals(List.of(), clean.violations());
        assertEquals("Allow a plus sign in the local part.", clean.trace().outcomes().get(0).value().asString());
        assertEquals("src/main/java/EmailValidator.java", clean.trace().outcomes().get(1).value().asString());
        assertEquals(2, served.get(), "the replay sent nothing");
        assertEquals(List.of(TEXT_EVENTS, 9), clean.trace().streams().stream().map(StreamTrace::arrived).toList(),
                "every event reached the SDK, the tool stream's ping too");
    }

    @Test
    void aCutIsRetriedAndTheTextAssembledOnceWithTheEventsOnTheVirtualClock() throws Exception {
        long t0 = System.nanoTime();
        AtomicReference<StreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("cut-then-ok", loop);
        assertEquals(List.of(), result.violations());
        List<CallRecord> calls = result.trace().calls();
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK),
                calls.stream().map(CallRecord::result).toList(), "the cut, then the retry");
        assertEquals(List.of("stream_cut", "none"), calls.stream().map(CallRecord::fault).toList());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.OK, plan.status());
        assertEquals("Allow a plus sign in the local part.", plan.value().asString(), "the text assembled once");
        assertEquals(2, plan.attempts());
        assertEquals(3, plan.streamEvents(), "three events reached the loop before the cut");
        assertEquals(Outcome.DROPPED, plan.partialText());
        RuntimeException seen = loop.get().broken.get(0);
        assertInstanceOf(AnthropicIoException.class, seen, "the SDK's own I/O failure, as on a dropped connection");
        assertTrue(seen.getCause().getMessage().contains("the stream was cut after 3 events"), seen.toString());

        StreamTrace cut = result.trace().streams().get(0);
        assertEquals("cut", cut.end());
        assertEquals(3, cut.arrived());
        assertEquals("Allow", cut.partialText());
        StreamTrace retry = result.trace().streams().get(1);
        assertEquals("done", retry.end());
        assertEquals(TEXT_EVENTS, retry.arrived());
        assertTrue(retry.eventNanos().get(0) >= cut.endNanos() + 200_000_000L,
                "the retry's events come after the cut and the loop's 200 ms backoff");
        JsonNode recordedEvents = cassette("plan").get("stream").get("events");
        long recordedSpanMs = recordedEvents.get(TEXT_EVENTS - 1).get("at_ms").asLong()
                - recordedEvents.get(0).get("at_ms").asLong();
        assertEquals(recordedSpanMs * 1_000_000L, retry.eventNanos().get(TEXT_EVENTS - 1) - retry.eventNanos().get(0),
                "the recorded gaps between events, on the virtual clock");
        assertEquals(Duration.ofMillis(200), result.trace().totalWait());
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "virtual time: no real waiting for the stream");

        RunReport report = RunReport.builder().scenario(ScenarioReport.of(result)).build();
        JsonNode json = ReportJson.toJson(report).get("scenarios").get(0).get("timeline").get("streams");
        assertEquals("cut", json.get(0).get("end").asString());
        assertEquals(3, json.get(0).get("events_ms").size());
        assertEquals(TEXT_EVENTS, json.get(1).get("events_ms").size());
    }

    @Test
    void anErrorEventIsTheSdksSseExceptionAndIsRetried() throws Exception {
        AtomicReference<StreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("error-event", loop);
        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList());
        SseException e = assertInstanceOf(SseException.class, loop.get().broken.get(0),
                "anthropic-java's own parser threw on the event: error");
        assertTrue(e.getMessage().contains("overloaded_error"), e.getMessage());
        assertEquals("error_event", result.trace().streams().get(0).end());
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
    }

    @Test
    void anInStreamOverloadedErrorAfterTextIsKeptByACarefulLoopAndTheSdkNeverRetriesIt() throws Exception {
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = careful("overloaded-after-text", true, loop);
        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one HTTP attempt: the 200 passed the SDK's retry layer, and the loop did not retry");
        SseException e = assertInstanceOf(SseException.class, loop.get().broken.get(0),
                "anthropic-java's parser threw on the event: error after the 200");
        assertTrue(e.getMessage().contains("overloaded_error"), e.getMessage());
        StreamTrace stream = result.trace().streams().get(0);
        assertEquals("error_event", stream.end());
        assertEquals(5, stream.arrived(), "message_start, content_block_start, two text deltas, then the error");
        assertEquals("Allow a plus", stream.partialText());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals("Allow a plus", plan.value().asString(), "the emitted text, kept");
        assertEquals(Outcome.KEPT, plan.partialText());
    }

    @Test
    void aLoopThatRetriesAfterTextOfAnInStreamOverloadedErrorFailsUnderPartialWork() throws Exception {
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
        assertEquals("plan", partial.get(0).op());
    }

    @Test
    void anInStreamApiErrorBeforeAnyTextIsRetriedByTheCarefulLoop() throws Exception {
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = careful("api-error-before-text", true, loop);
        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "no text had arrived: the loop retried, the SDK did not");
        SseException e = assertInstanceOf(SseException.class, loop.get().broken.get(0));
        assertTrue(e.getMessage().contains("api_error"), e.getMessage());
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
    }

    @Test
    void aStallPastTheReadTimeoutIsTheSdksTimeoutOnTheVirtualClock() throws Exception {
        long t0 = System.nanoTime();
        ScenarioResult result = check("stall", new AtomicReference<>());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList());
        assertEquals("stalled", result.trace().streams().get(0).end());
        assertTrue(result.trace().streams().get(0).endNanos() >= Duration.ofMinutes(10).toNanos(),
                "the SDK's default 10-minute timeout passed on the virtual clock");
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L);
    }

    @Test
    void aTruncatedToolCallStopsTheInputJsonDeltasMidJson() throws Exception {
        AtomicReference<StreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("truncated", loop);
        assertEquals(List.of(CallRecord.Result.SCHEMA), result.trace().calls().stream().map(CallRecord::result)
                .toList());
        String input = loop.get().toolInputs.get(0);
        assertTrue(input.startsWith("{\"path\":\"src/main/java/Email") && input.endsWith("{\"broken\": \""), input);
        assertEquals(Status.DEGRADED, result.trace().outcomes().get(0).status());
        assertEquals("schema", result.trace().outcomes().get(0).reason());
        assertEquals("done", result.trace().streams().get(0).end(), "the stream itself ended with message_stop");
    }

    @Test
    void aSlowFirstTokenDelaysTheFirstEvent() throws Exception {
        ScenarioResult result = check("slow", new AtomicReference<>());
        assertEquals(3_500_000_000L, result.trace().streams().get(0).eventNanos().get(0));
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
    }

    private JsonNode cassette(String op) throws IOException {
        List<JsonNode> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir.resolve("cassettes"))) {
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

    private ScenarioResult check(String name, AtomicReference<StreamingLoop> loop) throws Exception {
        return Rehearsal.prepare(config, () -> {
            StreamingLoop l = new StreamingLoop();
            loop.set(l);
            return l;
        }).check(scenario(name), 2, Rehearsal.RUN_INVARIANTS);
    }

    private ScenarioResult careful(String name, boolean careful, AtomicReference<CarefulStreamingLoop> loop)
            throws Exception {
        return Rehearsal.prepare(config, () -> {
            CarefulStreamingLoop l = new CarefulStreamingLoop(careful);
            loop.set(l);
            return l;
        }).check(scenario(name), 2, Rehearsal.RUN_INVARIANTS);
    }

    private Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    /** Anthropic's Messages API streaming each answer as named server-sent events, 15 ms apart. */
    private HttpServer stub() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/messages", exchange -> {
            int n = served.incrementAndGet();
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean ok = request.contains("\"stream\":true")
                    && MessagesStub.KEY.equals(exchange.getRequestHeaders().getFirst("x-api-key"));
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(ok ? 200 : 400, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                pause(40);
                send(out, "message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_0" + n + "\","
                        + "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\","
                        + "\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":20,"
                        + "\"output_tokens\":1}}}");
                boolean tool = request.contains("write_file");
                if (tool) {
                    send(out, "ping", "{\"type\":\"ping\"}");
                    send(out, "content_block_start", "{\"type\":\"content_block_start\",\"index\":0,"
                            + "\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"write_file\","
                            + "\"input\":{}}}");
                    for (String piece : List.of("{\\\"path\\\":\\\"src/main/java/Email", "Validator.java\\\",",
                            "\\\"content\\\":\\\"final class EmailValidator {}\\\"}")) {
                        pause(15);
                        send(out, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                                + "{\"type\":\"input_json_delta\",\"partial_json\":\"" + piece + "\"}}");
                    }
                } else {
                    send(out, "content_block_start", "{\"type\":\"content_block_start\",\"index\":0,"
                            + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
                    for (String piece : PIECES) {
                        pause(15);
                        send(out, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                                + "{\"type\":\"text_delta\",\"text\":\"" + piece + "\"}}");
                    }
                }
                send(out, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
                pause(15);
                send(out, "message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\""
                        + (tool ? "tool_use" : "end_turn") + "\",\"stop_sequence\":null},\"usage\":"
                        + "{\"output_tokens\":12}}");
                send(out, "message_stop", "{\"type\":\"message_stop\"}");
            }
        });
        server.start();
        return server;
    }

    private static void send(OutputStream out, String event, String data) throws IOException {
        out.write(("event: " + event + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
