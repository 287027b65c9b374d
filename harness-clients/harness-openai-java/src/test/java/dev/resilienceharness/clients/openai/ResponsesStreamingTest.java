package dev.resilienceharness.clients.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * A Responses answer recorded whole through openai-java's {@code responses().create} from a provider on 127.0.0.1,
 * then read by a loop that streams it with {@code responses().createStreaming}: the events the Responses API sends
 * for that answer, on the virtual clock, with the stream faults, parsed by the real SDK. And a stream recorded
 * through {@code createStreaming} itself, every named event with its offset, replayed as recorded.
 */
class ResponsesStreamingTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.openai.ResponsesStreamingLoop
            policy: {max_attempts: 3, base_delay: 200ms, max_total_wait: 30s}
            scenarios:
              - {name: clean, ops: [plan], faults: []}
              - {name: cut-then-ok, ops: [plan], faults: [{stream_cut: {after_events: 5}}, none]}
              - {name: stall, ops: [plan], faults: [{stream_stall: {after_events: 4, ms: 700000}}, none]}
              - {name: error-event, ops: [plan], faults: [{stream_error: {after_events: 5}}, none]}
              - {name: malformed, ops: [plan], faults: [{malformed_event: {at: 4}}, none]}
              - name: failed-after-text
                ops: [plan]
                faults: [{stream_error: {after_events: 5, error: response.failed}}, none]
                expect: {status: [degraded], attempts: [1]}
              - {name: failed-before-text, ops: [plan], faults: [{stream_error: {after_events: 4, error: response.failed}}, none]}
              - {name: slow, ops: [plan], faults: [{slow_first_token: {elapsed_ms: 3500}}]}
            """;

    static final String TEXT = "Read the logs, then patch the null check.";

    /** What the provider answers: one message of {@link #TEXT}. */
    static final String RESPONSE = "{\"id\":\"resp_live_1\",\"object\":\"response\",\"created_at\":1767225601,"
            + "\"status\":\"completed\",\"error\":null,\"incomplete_details\":null,\"instructions\":null,"
            + "\"metadata\":{},\"model\":\"gpt-4.1-mini-2025-04-14\",\"parallel_tool_calls\":true,\"temperature\":1.0,"
            + "\"tool_choice\":\"auto\",\"tools\":[],\"top_p\":1.0,\"output\":[{\"type\":\"message\",\"id\":\"msg_1\","
            + "\"status\":\"completed\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\""
            + TEXT + "\",\"annotations\":[]}]}],\"usage\":{\"input_tokens\":12,\"input_tokens_details\":"
            + "{\"cached_tokens\":0},\"output_tokens\":9,\"output_tokens_details\":{\"reasoning_tokens\":0},"
            + "\"total_tokens\":21}}";

    /** The events of the stream: created, in progress, item added, part added, the text deltas, then the ends. */
    static final int EVENTS = 4 + 3 + 4;

    @TempDir
    Path dir;

    private HarnessConfig config;
    private final AtomicInteger served = new AtomicInteger();

    @BeforeEach
    void recordTheAnswerWholeFromALoopbackProvider() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        HttpServer stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        stub.createContext("/v1/responses", exchange -> {
            served.incrementAndGet();
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            byte[] body = RESPONSE.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(request.contains("\"stream\"") ? 400 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        stub.start();
        try {
            int recorded = LoopRecorder.prepare(config, ResponsesStreamingLoop.Whole::new)
                    .recordMissing(scenario("clean"), LiveHttp.to(URI.create("http://127.0.0.1:"
                            + stub.getAddress().getPort() + "/v1"), "sk-test-key", Duration.ofSeconds(10)),
                            RecordingRedaction.forConfig(config)).recorded();
            assertEquals(1, recorded);
        } finally {
            stub.stop(0);
        }
    }

    @Test
    void theAnswerRecordedWholeIsStreamedAsTheResponsesApiWouldAndTheSdkReadsEveryEvent() throws Exception {
        JsonNode cassette;
        try (Stream<Path> files = Files.list(dir.resolve("cassettes"))) {
            cassette = Json.readTree(Files.readAllBytes(files.findFirst().orElseThrow()));
        }
        assertEquals("plan", cassette.get("op").asString());
        assertTrue(!cassette.get("request").has("stream"), "recorded whole");

        ScenarioResult clean = check("clean", ResponsesStreamingLoop::new);
        assertEquals(List.of(), clean.violations());
        JsonNode value = clean.trace().outcomes().get(0).value();
        assertEquals(TEXT, value.get("text").asString(), "the text deltas add up to the answer");
        assertTrue(value.get("completed_agrees").asBoolean(), "response.completed carries the whole answer");
        assertEquals(9, value.get("output_tokens").asInt(), "and its usage, which the SDK parsed");
        StreamTrace stream = clean.trace().streams().get(0);
        assertEquals("done", stream.end());
        assertEquals(EVENTS, stream.arrived());
        assertEquals(1, served.get(), "the replay sent nothing");
    }

    @Test
    void aCutIsRetriedAndTheTextAssembledOnce() throws Exception {
        ScenarioResult result = check("cut-then-ok", ResponsesStreamingLoop::new);
        assertEquals(List.of(), result.violations());
        List<CallRecord> calls = result.trace().calls();
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK),
                calls.stream().map(CallRecord::result).toList(), "the cut, then the retry");
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.OK, plan.status());
        assertEquals(TEXT, plan.value().get("text").asString(), "the text assembled once");
        assertEquals(5, plan.streamEvents(), "five events arrived before the cut");
        StreamTrace cut = result.trace().streams().get(0);
        assertEquals("cut", cut.end());
        assertEquals("Read the logs, t", cut.partialText(), "one text delta had arrived");
        assertEquals(Duration.ofMillis(200), result.trace().totalWait());
    }

    @Test
    void aLoopThatAppendsTheRetryToThePartialTextIsReported() throws Exception {
        ScenarioResult result = check("cut-then-ok", ResponsesStreamingLoop.KeepsPartialText::new);
        assertEquals("Read the logs, t" + TEXT, result.trace().outcomes().get(0).value().get("text").asString());
        List<Violation> partial = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.PARTIAL_WORK).toList();
        assertEquals(1, partial.size(), result.violations().toString());
        assertTrue(partial.get(0).message().contains("\"Read the logs, t\" appears 2 times"),
                partial.get(0).message());
    }

    @Test
    void aStallPastTheReadTimeoutAnErrorEventAndAMalformedEventAreRetried() throws Exception {
        // What the SDK does with each: the iterator throws, except at an error event, which it hands the loop.
        java.util.Map<String, String> brokenBy = java.util.Map.of("cut-then-ok", "OpenAIIoException",
                "stall", "OpenAIIoException", "malformed", "OpenAIInvalidDataException",
                "error-event", ResponsesStreamingLoop.BrokenStream.class.getSimpleName());
        for (String name : List.of("cut-then-ok", "stall", "error-event", "malformed")) {
            ScenarioResult result = check(name, ResponsesStreamingLoop::new);
            assertEquals(List.of(), result.violations(), name);
            assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                    .map(CallRecord::result).toList(), name);
            JsonNode value = result.trace().outcomes().get(0).value();
            assertEquals(TEXT, value.get("text").asString(), name);
            assertEquals(brokenBy.get(name), value.get("broken_by").get(0).asString(), name);
        }
        assertEquals("stalled", check("stall", ResponsesStreamingLoop::new).trace().streams().get(0).end());
    }

    @Test
    void anInStreamResponseFailedAfterTextIsKeptByACarefulLoopAndTheSdkNeverRetriesIt() throws Exception {
        CarefulResponsesLoop[] loop = new CarefulResponsesLoop[1];
        ScenarioResult result = check("failed-after-text", () -> loop[0] = new CarefulResponsesLoop(true));
        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one HTTP attempt: the 200 passed the SDK's retry layer, and the loop did not retry");
        assertEquals(List.of("response.failed server_error"), loop[0].broken,
                "openai-java handed the loop a ResponseFailedEvent carrying the response's error");
        StreamTrace stream = result.trace().streams().get(0);
        assertEquals("error_event", stream.end());
        assertEquals("Read the logs, t", stream.partialText());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals("Read the logs, t", plan.value().asString(), "the emitted text, kept");
        assertEquals(Outcome.KEPT, plan.partialText());
    }

    @Test
    void aLoopThatRetriesAfterTextOfAnInStreamResponseFailedFailsUnderPartialWork() throws Exception {
        CarefulResponsesLoop[] loop = new CarefulResponsesLoop[1];
        ScenarioResult result = check("failed-after-text", () -> loop[0] = new CarefulResponsesLoop(false));
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry, never the SDK's");
        assertEquals("Read the logs, t" + TEXT, result.trace().outcomes().get(0).value().asString());
        List<Violation> partial = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.PARTIAL_WORK).toList();
        assertEquals(1, partial.size(), result.violations().toString());
        assertEquals("its outcome repeats text that had already arrived before the stream was ended by an error event"
                + " after 6 events: \"Read the logs, t\" appears 2 times in it", partial.get(0).message());
    }

    @Test
    void anInStreamErrorEventBeforeAnyTextIsRetriedByTheCarefulLoop() throws Exception {
        CarefulResponsesLoop[] loop = new CarefulResponsesLoop[1];
        ScenarioResult result = check("failed-before-text", () -> loop[0] = new CarefulResponsesLoop(true));
        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "no text had arrived: the loop retried, the SDK did not");
        assertEquals(List.of("response.failed server_error"), loop[0].broken);
        assertEquals(TEXT, result.trace().outcomes().get(0).value().asString());
        ScenarioResult usual = check("error-event", () -> loop[0] = new CarefulResponsesLoop(false));
        assertEquals(List.of("error server_error"), loop[0].broken, "the flat error event, a ResponseErrorEvent");
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), usual.trace().calls().stream()
                .map(CallRecord::result).toList());
    }

    @Test
    void aSlowFirstTokenDelaysTheFirstEvent() throws Exception {
        ScenarioResult result = check("slow", ResponsesStreamingLoop::new);
        assertEquals(3_500_000_000L, result.trace().streams().get(0).eventNanos().get(0));
        assertEquals(3500L, result.trace().calls().get(0).firstTokenMs());
    }

    @Test
    void aStreamRecordedThroughCreateStreamingKeepsEveryNamedEventAndReplaysThem(@TempDir Path other)
            throws Exception {
        Files.writeString(other.resolve("resilience.yaml"), YAML);
        HarnessConfig streamed = ConfigLoader.load(other.resolve("resilience.yaml"));
        // As the Responses API streams: named events, numbered, the response whole in the last one.
        String msg = "{\"type\":\"message\",\"id\":\"msg_s1\",\"status\":\"%s\",\"role\":\"assistant\",\"content\":%s}";
        String part = "{\"type\":\"output_text\",\"annotations\":[],\"text\":\"%s\"}";
        String started = RESPONSE.replace("\"status\":\"completed\",\"error\"", "\"status\":\"in_progress\",\"error\"")
                .replaceFirst("\"output\":\\[.*\\],\"usage\".*", "\"output\":[],\"usage\":null}");
        List<String[]> events = List.of(
                new String[] {"response.created", "\"response\":" + started},
                new String[] {"response.in_progress", "\"response\":" + started},
                new String[] {"response.output_item.added", "\"output_index\":0,\"item\":"
                        + String.format(msg, "in_progress", "[]")},
                new String[] {"response.content_part.added", "\"item_id\":\"msg_s1\",\"output_index\":0,"
                        + "\"content_index\":0,\"part\":" + String.format(part, "")},
                delta("Read the logs,"), delta(" then patch"), delta(" the null check."),
                new String[] {"response.output_text.done", "\"item_id\":\"msg_s1\",\"output_index\":0,"
                        + "\"content_index\":0,\"text\":\"" + TEXT + "\",\"logprobs\":[]"},
                new String[] {"response.content_part.done", "\"item_id\":\"msg_s1\",\"output_index\":0,"
                        + "\"content_index\":0,\"part\":" + String.format(part, TEXT)},
                new String[] {"response.output_item.done", "\"output_index\":0,\"item\":"
                        + String.format(msg, "completed", "[" + String.format(part, TEXT) + "]")},
                new String[] {"response.completed", "\"response\":" + RESPONSE});
        HttpServer stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        stub.createContext("/v1/responses", exchange -> {
            served.incrementAndGet();
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(request.contains("\"stream\":true") ? 200 : 400, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < events.size(); i++) {
                    pause(i == 0 ? 40 : 10);
                    out.write(("event: " + events.get(i)[0] + "\ndata: {\"type\":\"" + events.get(i)[0] + "\","
                            + events.get(i)[1] + ",\"sequence_number\":" + i + "}\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
        });
        stub.start();
        try {
            int recorded = LoopRecorder.prepare(streamed, ResponsesStreamingLoop::new).recordMissing(
                    streamed.scenarios().get(0), LiveHttp.to(URI.create("http://127.0.0.1:"
                            + stub.getAddress().getPort() + "/v1"), "sk-test-key", Duration.ofSeconds(10)),
                    RecordingRedaction.forConfig(streamed)).recorded();
            assertEquals(1, recorded);
        } finally {
            stub.stop(0);
        }
        JsonNode cassette;
        try (Stream<Path> files = Files.list(other.resolve("cassettes"))) {
            cassette = Json.readTree(Files.readAllBytes(files.findFirst().orElseThrow()));
        }
        assertEquals(true, cassette.get("request").get("stream").asBoolean(), "openai-java asked for a stream");
        JsonNode kept = cassette.get("stream").get("events");
        assertEquals(events.size(), kept.size());
        for (int i = 0; i < events.size(); i++) {
            assertEquals(events.get(i)[0], kept.get(i).get("event").asString(), "every event under its name");
        }
        assertTrue(kept.get(4).get("at_ms").asLong() >= 40 + 4 * 10, "with its offset: " + kept.get(4));
        assertEquals(TEXT, cassette.get("response").at("/output/0/content/0/text").asString(),
                "response is the one response.completed carried");
        assertTrue(!cassette.get("response").has("id") && !kept.get(0).get("data").asString().contains("resp_live_1"),
                "its volatile id stripped, in the events too");
        assertEquals(cassette.at("/timing/first_token_ms").asLong(), kept.get(4).get("at_ms").asLong(),
                "the first token is the first text delta");

        Rehearsal replay = Rehearsal.prepare(streamed, ResponsesStreamingLoop::new);
        ScenarioResult clean = replay.check(streamed.scenarios().get(0), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), clean.violations());
        assertEquals(TEXT, clean.trace().outcomes().get(0).value().get("text").asString());
        assertEquals(kept.get(0).get("at_ms").asLong() * 1_000_000L, clean.trace().streams().get(0).eventNanos().get(0),
                "the recorded events at their recorded offsets");
        ScenarioResult cut = replay.check(streamed.scenarios().get(1), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), cut.violations());
        assertEquals("Read the logs,", cut.trace().streams().get(0).partialText());
        assertEquals(2, served.get(), "one request for each recording, none for the replays");
    }

    private static String[] delta(String piece) {
        return new String[] {"response.output_text.delta", "\"item_id\":\"msg_s1\",\"output_index\":0,"
                + "\"content_index\":0,\"delta\":\"" + piece + "\",\"logprobs\":[]"};
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private ScenarioResult check(String name, LoopFactory loop) throws Exception {
        return Rehearsal.prepare(config, loop).check(scenario(name), 2, Rehearsal.RUN_INVARIANTS);
    }

    private Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }
}
