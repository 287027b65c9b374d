package dev.resilienceharness.clients.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.scenario.SetupException;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.RunTrace;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Recording through the team's own Spring AI code: {@code recordMissing} runs the loop once with no faults against a
 * provider on 127.0.0.1, and the cassettes it writes replay offline.
 */
class RecordThroughSpringAiTest {

    static final String KEY = "sk-proj-recording0key0that0must0never0reach0disk";

    @TempDir
    Path dir;

    private HttpServer provider;
    private final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, JsonNode> answers = new TreeMap<>();
    private Workspace ws;

    @BeforeEach
    void startProvider() throws Exception {
        for (String op : Workspace.EXCHANGES) {
            JsonNode exchange = Json.readTree(Workspace.resource("rehearsal/exchanges/" + op + ".json"));
            answers.put(exchange.get("request").get("messages").get(0).get("content").asString(),
                    exchange.get("response"));
        }
        provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        provider.createContext("/v1/chat/completions", exchange -> {
            JsonNode request = Json.readTree(exchange.getRequestBody().readAllBytes());
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            JsonNode answer = answers.get(request.path("messages").path(0).path("content").asString());
            if (answer != null && request.path("stream").asBoolean(false)) {
                streamed(exchange, answer);
                return;
            }
            byte[] body = (answer == null ? "{\"error\":{\"message\":\"unknown prompt\"}}" : Json.compact(answer))
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer == null ? 400 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        provider.start();
        ws = Workspace.in(dir, List.of());
    }

    /** The answer as an OpenAI-compatible provider streams it: its chunks as server-sent events, 10 ms apart. */
    private static void streamed(com.sun.net.httpserver.HttpExchange exchange, JsonNode answer)
            throws java.io.IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (java.io.OutputStream out = exchange.getResponseBody()) {
            for (String data : dev.resilienceharness.http.ChunkStreams.of(answer, false)) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        }
    }

    @AfterEach
    void stopProvider() {
        provider.stop(0);
    }

    private LiveHttp live() {
        return LiveHttp.to(URI.create("http://127.0.0.1:" + provider.getAddress().getPort() + "/v1"), KEY,
                Duration.ofSeconds(10));
    }

    private RunTrace record(String scenario) throws Exception {
        LoopRecorder recording = LoopRecorder.prepare(ws.config(), TeamLoop::new);
        return recording.recordMissing(ws.scenario(scenario), live(), RecordingRedaction.forConfig(ws.config()))
                .trace();
    }

    @Test
    void recordMissingWritesOneLabelledRedactedCassettePerOpThatThenReplaysOffline() throws Exception {
        RunTrace recorded = record("calm");
        assertEquals(List.of(Status.OK, Status.OK, Status.OK),
                recorded.outcomes().stream().map(Outcome::status).toList());
        assertEquals(List.of("Bearer " + KEY, "Bearer " + KEY, "Bearer " + KEY), authorizations,
                "the recorder's key, not the client's, reached the provider");
        List<Path> files;
        try (var list = Files.list(ws.cassettes())) {
            files = list.sorted().toList();
        }
        List<String> labels = new ArrayList<>();
        for (Path file : files) {
            String text = Files.readString(file);
            assertFalse(text.contains(KEY), file.toString());
            assertFalse(text.contains(HarnessSpringAi.NO_KEY), file.toString());
            JsonNode cassette = Json.readTree(text);
            labels.add(cassette.get("op").asString());
            assertEquals("gpt-5-mini", cassette.get("request").get("model").asString());
            assertFalse(cassette.get("response").has("id"), "response.id is volatile and stripped");
        }
        Collections.sort(labels);
        assertEquals(List.of("patch", "plan", "review"), labels);

        ScenarioResult replayed = Rehearsal.prepare(ws.config(), TeamLoop::new)
                .check(ws.scenario("calm"), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), replayed.violations());
        assertEquals("1. Reproduce the failure. 2. Make Range.contains include its upper bound. 3. Add a test for"
                + " the bound.", replayed.trace().outcomes().get(0).value().get("text").asString());
        assertEquals(3, authorizations.size(), "the replay sent nothing");
    }

    @Test
    void theRecordedCassettesCarryTheFaultScenariosOffline() throws Exception {
        record("calm");
        ScenarioResult quota = Rehearsal.prepare(ws.config(), TeamLoop::new)
                .check(ws.scenario("quota-four-times"), 1, Rehearsal.RUN_INVARIANTS);
        assertEquals(4, quota.trace().calls().size());
        assertTrue(quota.violations().stream().anyMatch(v -> v.invariant() == Invariant.BUDGET
                && v.hint().startsWith("spring-ai-openai retried 3 times")), quota.violations().toString());
        assertEquals(3, authorizations.size(), "faults are replayed, never sent");
    }

    @Test
    void aStreamingLoopRecordsItsStreamsEventByEventWithTheirTimingAndTheyReplayOffline() throws Exception {
        // stream() now sends its request as it is, so the provider streams and the cassette keeps every event; the
        // plain calls of the same prompts are requests of their own, recorded by a loop that calls.
        LoopRecorder recording = LoopRecorder.prepare(ws.config(),
                () -> TeamLoop.streaming(HarnessSpringAiTest.DEFAULTS));
        recording.recordMissing(ws.scenario("calm"), live(), RecordingRedaction.forConfig(ws.config()));
        assertEquals(3, authorizations.size());
        try (var list = Files.list(ws.cassettes())) {
            for (Path file : list.toList()) {
                JsonNode cassette = Json.readTree(Files.readAllBytes(file));
                assertTrue(cassette.get("request").get("stream").asBoolean(), file.toString());
                JsonNode events = cassette.get("stream").get("events");
                assertEquals("[DONE]", events.get(events.size() - 1).get("data").asString(), file.toString());
                // The stub sends an event every 10 ms, so the last cannot arrive sooner than that many gaps after the
                // request, however the socket bunches the first few.
                assertTrue(events.get(events.size() - 1).get("at_ms").asLong() >= (events.size() - 1) * 10L,
                        "the gaps between events (10 ms each) were recorded: " + events);
                assertTrue(cassette.get("response").has("choices"), "response is the assembled completion");
            }
        }
        ScenarioResult replayed = Rehearsal.prepare(ws.config(), () -> TeamLoop.streaming(HarnessSpringAiTest.DEFAULTS))
                .check(ws.scenario("calm"), 2, Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), replayed.violations());
        assertEquals("1. Reproduce the failure. 2. Make Range.contains include its upper bound. 3. Add a test for"
                + " the bound.", replayed.trace().outcomes().get(0).value().get("text").asString());
        assertEquals(List.of("done", "done", "done"), replayed.trace().streams().stream()
                .map(dev.resilienceharness.trace.StreamTrace::end).toList());
        assertEquals(3, authorizations.size(), "the replay sent nothing");
    }

    @Test
    void recordingTwiceSendsNothingTheCassettesAlreadyAnswer() throws Exception {
        record("calm");
        record("crash-in-patch");
        assertEquals(3, authorizations.size());
    }

    @Test
    void anOpWithNoRecordingIsASetupErrorThatSaysHowToRecordItThroughTheLoop() throws Exception {
        record("slow-first-token");
        SetupException e = assertThrows(SetupException.class, () -> Rehearsal.prepare(ws.config(), TeamLoop::new));
        assertTrue(e.getMessage().contains("no cassette recorded for op 'patch'. This op's calls come from your"
                + " loop's SDK: run mvn resilience:record (loop: dev.resilienceharness.clients.springai.TeamLoop)"),
                e.getMessage());
    }

}
