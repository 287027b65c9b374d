package dev.resilienceharness.clients.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.errors.SseException;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.report.HtmlReport;
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
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A streamed chat completion recorded through openai-java's {@code createStreaming} from a provider on 127.0.0.1,
 * with every event and its timing, then replayed chunk by chunk on the virtual clock with the stream faults.
 */
class StreamingTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.openai.StreamingLoop
            policy: {max_attempts: 3, base_delay: 200ms, max_total_wait: 30s}
            scenarios:
              - {name: clean, ops: [plan], faults: []}
              - {name: cut-then-ok, ops: [plan], faults: [{stream_cut: {after_events: 3}}, none]}
              - {name: stall, ops: [plan], faults: [{stream_stall: {after_events: 2, ms: 700000}}, none]}
              - {name: error-event, ops: [plan], faults: [{stream_error: {after_events: 2}}, none]}
              - {name: malformed, ops: [plan], faults: [{malformed_event: {at: 2}}, none]}
              - {name: error-after-text, ops: [plan], faults: [{stream_error: {after_events: 3, error: overloaded_error}}, none]}
              - {name: slow, ops: [plan], faults: [{slow_first_token: {elapsed_ms: 3500}}]}
            """;

    static final List<String> PIECES = List.of("Read", " the", " logs,", " then", " patch.");

    @TempDir
    Path dir;

    private HarnessConfig config;
    private final AtomicInteger served = new AtomicInteger();

    @BeforeEach
    void recordAStreamFromALoopbackProvider() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        HttpServer stub = stub();
        try {
            int recorded = LoopRecorder.prepare(config, StreamingLoop::new).recordMissing(scenario("clean"),
                    LiveHttp.to(URI.create("http://127.0.0.1:" + stub.getAddress().getPort() + "/v1"),
                            "sk-test-key", Duration.ofSeconds(10)), RecordingRedaction.forConfig(config)).recorded();
            assertEquals(1, recorded);
        } finally {
            stub.stop(0);
        }
    }

    @Test
    void theCassetteKeepsEveryEventWithItsOffsetAndTheAssembledMessage() throws Exception {
        JsonNode cassette;
        try (Stream<Path> files = Files.list(dir.resolve("cassettes"))) {
            cassette = Json.readTree(Files.readAllBytes(files.findFirst().orElseThrow()));
        }
        assertEquals("plan", cassette.get("op").asString());
        assertEquals(true, cassette.get("request").get("stream").asBoolean(), "openai-java asked for a stream");
        assertEquals("Read the logs, then patch.", cassette.get("response").get("choices").get(0).get("message")
                .get("content").asString());
        JsonNode events = cassette.get("stream").get("events");
        assertEquals(PIECES.size() + 3, events.size(), "role, pieces, finish, [DONE]");
        assertTrue(events.get(0).get("at_ms").asLong() >= 40, events.toString());
        assertTrue(events.get(events.size() - 2).get("at_ms").asLong() - events.get(0).get("at_ms").asLong()
                >= 6 * 15, "the gaps between events were recorded: " + events);
        assertEquals("[DONE]", events.get(events.size() - 1).get("data").asString());
        assertEquals(1, served.get());

        ScenarioResult clean = check("clean", StreamingLoop::new);
        assertEquals(List.of(), clean.violations());
        assertEquals("Read the logs, then patch.", clean.trace().outcomes().get(0).value().asString());
        assertEquals(1, served.get(), "the replay sent nothing");
    }

    @Test
    void aCutIsRetriedAndTheTextAssembledOnceWithTheEventsOnTheVirtualClock() throws Exception {
        long t0 = System.nanoTime();
        ScenarioResult result = check("cut-then-ok", StreamingLoop::new);
        assertEquals(List.of(), result.violations());
        List<CallRecord> calls = result.trace().calls();
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK),
                calls.stream().map(CallRecord::result).toList(), "the cut, then the retry");
        assertEquals(List.of("stream_cut", "none"), calls.stream().map(CallRecord::fault).toList());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.OK, plan.status());
        assertEquals("Read the logs, then patch.", plan.value().asString(), "the text assembled once");
        assertEquals(2, plan.attempts());
        assertEquals(3, plan.streamEvents(), "three chunks arrived before the cut");
        assertEquals(Outcome.DROPPED, plan.partialText());

        StreamTrace cut = result.trace().streams().get(0);
        assertEquals("cut", cut.end());
        assertEquals(3, cut.arrived());
        assertEquals("Read the", cut.partialText());
        StreamTrace retry = result.trace().streams().get(1);
        assertEquals("done", retry.end());
        assertEquals(PIECES.size() + 3, retry.arrived());
        assertTrue(retry.eventNanos().get(0) >= cut.endNanos() + 200_000_000L,
                "the retry's events come after the cut and the loop's 200 ms backoff");
        assertEquals(Duration.ofMillis(200), result.trace().totalWait());
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "virtual time: no real waiting for the stream");

        // The report's timeline shows both streams' events on the virtual clock, and where the first was cut.
        RunReport report = RunReport.builder().scenario(ScenarioReport.of(result)).build();
        JsonNode json = ReportJson.toJson(report).get("scenarios").get(0).get("timeline").get("streams");
        assertEquals(2, json.size(), json.toString());
        assertEquals("cut", json.get(0).get("end").asString());
        assertEquals(3, json.get(0).get("events_ms").size());
        assertEquals(cut.eventNanos().get(0) / 1e6, json.get(0).get("events_ms").get(0).asDouble());
        assertEquals(cut.endNanos() / 1e6, json.get(0).get("end_ms").asDouble(), "the cut point");
        assertEquals(PIECES.size() + 3, json.get(1).get("events_ms").size());
        String html = HtmlReport.toHtml(report);
        assertTrue(html.contains("stream cut after 3 events at t="), "the cut, in words under the timeline");
        assertTrue(html.contains("\"streams\":[[0,\"cut\","), "and in the timeline's data");
    }

    @Test
    void aLoopThatAppendsTheRetryToThePartialTextIsReported() throws Exception {
        ScenarioResult result = check("cut-then-ok", StreamingLoop.KeepsPartialText::new);
        assertEquals("Read theRead the logs, then patch.", result.trace().outcomes().get(0).value().asString());
        Violation v = only(result, Invariant.PARTIAL_WORK);
        assertEquals("plan", v.op());
        assertEquals("2 times", v.actual());
        assertTrue(v.message().contains("\"Read the\" appears 2 times"), v.message());
    }

    @Test
    void anErrorChunkAfterTextIsTheSdksSseExceptionAndALoopThatRetriesAfterItFailsUnderPartialWork()
            throws Exception {
        StreamingLoop[] loop = new StreamingLoop[1];
        ScenarioResult result = check("error-after-text", () -> loop[0] = new StreamingLoop.KeepsPartialText());
        SseException e = assertInstanceOf(SseException.class, loop[0].broken.get(0),
                "openai-java's SseHandler threw on the chunk holding error");
        assertEquals(200, e.statusCode(), "after the 200, where the SDK's retries do not look");
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry");
        assertEquals("error_event", result.trace().streams().get(0).end());
        assertEquals("Read theRead the logs, then patch.", result.trace().outcomes().get(0).value().asString());
        Violation v = only(result, Invariant.PARTIAL_WORK);
        assertEquals("its outcome repeats text that had already arrived before the stream was ended by an error event"
                + " after 4 events: \"Read the\" appears 2 times in it", v.message());
    }

    @Test
    void aStallPastTheReadTimeoutAnErrorEventAndAMalformedEventAreRetried() throws Exception {
        for (String name : List.of("stall", "error-event", "malformed")) {
            ScenarioResult result = check(name, StreamingLoop::new);
            assertEquals(List.of(), result.violations(), name);
            assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                    .map(CallRecord::result).toList(), name);
            assertEquals("Read the logs, then patch.", result.trace().outcomes().get(0).value().asString(), name);
        }
        StreamTrace stalled = check("stall", StreamingLoop::new).trace().streams().get(0);
        assertEquals("stalled", stalled.end());
        assertNotNull(stalled.endNanos());
    }

    @Test
    void aSlowFirstTokenDelaysTheFirstEvent() throws Exception {
        ScenarioResult result = check("slow", StreamingLoop::new);
        assertEquals(3_500_000_000L, result.trace().streams().get(0).eventNanos().get(0));
        assertEquals(3500L, result.trace().calls().get(0).firstTokenMs());
    }

    private ScenarioResult check(String name, LoopFactory loop) throws Exception {
        return Rehearsal.prepare(config, loop).check(scenario(name), 2, Rehearsal.RUN_INVARIANTS);
    }

    private Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static Violation only(ScenarioResult result, Invariant invariant) {
        List<Violation> found = result.violations().stream().filter(v -> v.invariant() == invariant).toList();
        assertEquals(1, found.size(), result.violations().toString());
        return found.get(0);
    }

    /** An OpenAI-compatible provider that streams each answer as server-sent events, 15 ms apart. */
    private HttpServer stub() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            served.incrementAndGet();
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(request.contains("\"stream\":true") ? 200 : 400, 0);
            String head = "{\"id\":\"chatcmpl-s1\",\"object\":\"chat.completion.chunk\",\"created\":1767225601,"
                    + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":";
            try (OutputStream out = exchange.getResponseBody()) {
                pause(40);
                send(out, head + "{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}");
                for (String piece : PIECES) {
                    pause(15);
                    send(out, head + "{\"content\":\"" + piece + "\"},\"finish_reason\":null}]}");
                }
                pause(15);
                send(out, head + "{},\"finish_reason\":\"stop\"}]}");
                send(out, "[DONE]");
            }
        });
        server.start();
        return server;
    }

    private static void send(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
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
