package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.ProviderStub;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * serve records a streamed answer with every event's timing, and replays it event by event at the recorded offsets,
 * with the stream faults as real HTTP: a cut drops the connection mid-stream, an error event ends it.
 */
class ReplayProxyStreamsTest {

    static final String PLAN = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":"
            + "\"plan the fix\"}]}";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private HarnessConfig config() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                policy: {max_total_wait: 30s}
                scenarios:
                  - {name: cut, faults: [{stream_cut: {after_events: 3}}, none]}
                  - {name: error, faults: [{stream_error: {after_events: 2}}]}
                  - {name: api-error, faults: [{stream_error: {after_events: 2, error: api_error}}]}
                  - {name: failed, faults: [{stream_error: {after_events: 2, error: response.failed}}]}
                  - {name: truncated, faults: [truncated_tool_call]}
                  - {name: late, faults: [{slow_first_token: {elapsed_ms: 300}}]}
                provider: {base_url: "http://127.0.0.1:9/v1", api_key_env: PROVIDER_API_KEY}
                """);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    /** The data lines of a streamed answer, each with the milliseconds since the request when it was read. */
    record Read(List<String> data, List<Long> atMs, IOException failure) {
    }

    private Read read(ReplayProxy proxy) {
        return org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> readAll(proxy),
                "a stream ends, or breaks, in bounded time");
    }

    private Read readAll(ReplayProxy proxy) throws Exception {
        long start = System.nanoTime();
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port()
                + "/v1/chat/completions")).timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(PLAN)).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        assertEquals("text/event-stream", r.headers().firstValue("content-type").orElseThrow());
        List<String> data = new ArrayList<>();
        List<Long> at = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("data: ")) {
                    data.add(line.substring(6));
                    at.add((System.nanoTime() - start) / 1_000_000);
                }
            }
        } catch (IOException e) {
            return new Read(data, at, e);
        }
        return new Read(data, at, null);
    }

    @Test
    void aStreamIsRecordedThroughServeAndReplayedEventByEventWithItsCut() throws Exception {
        HarnessConfig config = config();
        try (ProviderStub stub = ProviderStub.start()) {
            stub.then(new ProviderStub.Paced(ProviderStub.chunks("Fix", " the", " null", " check."), 30, 40));
            LiveTransport live = LiveTransport.connect(new dev.resilienceharness.config.Provider(stub.baseUrl(),
                    "PROVIDER_API_KEY"), Map.of("PROVIDER_API_KEY", ProviderStub.KEY)::get);
            try (ReplayProxy proxy = ReplayProxy.builder(config).mode(Mode.RECORD_MISSING).upstream(live).build()
                    .start()) {
                Read recorded = read(proxy);
                assertEquals("[DONE]", recorded.data().get(recorded.data().size() - 1));
            }
        }
        Path file;
        try (Stream<Path> files = Files.list(config.cassettes())) {
            file = files.findFirst().orElseThrow();
        }
        Cassette c = new CassetteReader(config.cassettes(), VolatilePaths.of(config.volatilePaths())).read(file);
        assertEquals(7, c.stream().events().size(), "role, four pieces, finish, [DONE]: every event, with its offset");
        // An event is read no sooner than it was sent: 30 ms, then six gaps of 40 ms.
        assertTrue(c.stream().events().get(6).atMs() >= 30 + 6 * 40, c.stream().events().toString());

        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("cut").build().start()) {
            Read cut = read(proxy);
            assertEquals(3, cut.data().size(), "three events, then the connection drops: " + cut.data());
            assertTrue(cut.failure() != null, "the client's read fails as on a dropped connection");
            Read whole = read(proxy);
            assertEquals(null, whole.failure());
            assertEquals(7, whole.data().size());
            assertEquals("[DONE]", whole.data().get(6));
            StringBuilder text = new StringBuilder();
            whole.data().subList(0, 6).forEach(d -> text.append(Json.readTree(d).at("/choices/0/delta/content")
                    .asString("")));
            assertEquals("Fix the null check.", text.toString());
            for (int i = 0; i < 7; i++) {
                assertTrue(whole.atMs().get(i) >= c.stream().events().get(i).atMs() - 2,
                        "each event is sent no sooner than its recorded offset: " + whole.atMs() + " against "
                                + c.stream().events());
            }
        }
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("error").timeFactor(0).build().start()) {
            Read error = read(proxy);
            assertEquals(3, error.data().size(), error.data().toString());
            assertEquals("server_error", Json.readTree(error.data().get(2)).at("/error/type").asString());
        }
    }

    @Test
    void aStreamingRequestWithoutACassetteIsStillAMiss() throws Exception {
        HarnessConfig config = config();
        try (ReplayProxy proxy = ReplayProxy.builder(config).build().start()) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port()
                    + "/v1/chat/completions")).POST(HttpRequest.BodyPublishers.ofString(PLAN)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(404, r.statusCode());
            assertEquals("cassette_miss", Json.readTree(r.body()).at("/error/code").asString(), r.body());
        }
    }

    // --- Anthropic Messages -------------------------------------------------------------------------------------

    static final String ASK = "{\"model\":\"c\",\"max_tokens\":64,\"stream\":true,\"messages\":[{\"role\":"
            + "\"user\",\"content\":\"plan the fix\"}]}";
    static final String MESSAGE = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"c\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"Fix the null check.\"},{\"type\":\"tool_use\",\"id\":"
            + "\"toolu_1\",\"name\":\"edit\",\"input\":{\"path\":\"src/Main.java\",\"line\":12}}],"
            + "\"stop_reason\":\"tool_use\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":9,\"output_tokens\":14}}";

    /** One named event of a Messages stream as the client read it, with the milliseconds since the request. */
    record Named(String event, String data, long atMs) {
    }

    record ReadNamed(List<Named> events, IOException failure) {
        String text() {
            StringBuilder sb = new StringBuilder();
            events.forEach(e -> sb.append(Json.readTree(e.data()).at("/delta/text").asString("")));
            return sb.toString();
        }

        String toolInput() {
            StringBuilder sb = new StringBuilder();
            events.forEach(e -> sb.append(Json.readTree(e.data()).at("/delta/partial_json").asString("")));
            return sb.toString();
        }

        /** The text of a Responses stream's {@code response.output_text.delta} events. */
        String responsesText() {
            StringBuilder sb = new StringBuilder();
            events.stream().filter(e -> "response.output_text.delta".equals(e.event()))
                    .forEach(e -> sb.append(Json.readTree(e.data()).path("delta").asString()));
            return sb.toString();
        }

        List<String> names() {
            return events.stream().map(Named::event).toList();
        }
    }

    private ReadNamed readMessages(ReplayProxy proxy) {
        return readNamed(proxy, "/v1/messages", ASK);
    }

    private ReadNamed readNamed(ReplayProxy proxy, String path, String body) {
        return org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> readAllNamed(proxy, path, body), "a stream ends, or breaks, in bounded time");
    }

    /** Reads the SSE of a streaming POST to {@code path}, pairing each event: line with its data: line. */
    private ReadNamed readAllNamed(ReplayProxy proxy, String path, String body) throws Exception {
        long start = System.nanoTime();
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port()
                + path)).timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        assertEquals("text/event-stream", r.headers().firstValue("content-type").orElseThrow());
        List<Named> events = new ArrayList<>();
        String name = null;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("event: ")) {
                    name = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    events.add(new Named(name, line.substring(6), (System.nanoTime() - start) / 1_000_000));
                    name = null;
                }
            }
        } catch (IOException e) {
            return new ReadNamed(events, e);
        }
        return new ReadNamed(events, null);
    }

    /** The recorded stream of MESSAGE: its events as the API names them, 20 ms apart from 20 ms on. */
    private List<dev.resilienceharness.cassette.StreamEvent> recordedEvents() {
        List<dev.resilienceharness.cassette.StreamEvent> events = new ArrayList<>();
        List<dev.resilienceharness.cassette.StreamEvent> whole = dev.resilienceharness.http.MessageStreams.of(
                Json.readTree(MESSAGE), 0);
        for (int i = 0; i < whole.size(); i++) {
            events.add(whole.get(i).later(20 + 20L * i));
        }
        return events;
    }

    private void cassette(HarnessConfig config, String request, dev.resilienceharness.cassette.CassetteStream stream)
            throws IOException {
        new dev.resilienceharness.cassette.CassetteStore(config.cassettes(), VolatilePaths.of(config.volatilePaths()),
                Mode.RECORD, java.util.function.UnaryOperator.identity()).write(
                (tools.jackson.databind.node.ObjectNode) Json.readTree(request), Json.readTree(MESSAGE),
                new dev.resilienceharness.cassette.Timing(20L, 20L * recordedEvents().size()), "plan", stream);
    }

    @Test
    void aMessagesStreamIsServedAsNamedEventsAtTheirRecordedOffsetsWithItsCutAndErrorEvent() throws Exception {
        HarnessConfig config = config();
        List<dev.resilienceharness.cassette.StreamEvent> recorded = recordedEvents();
        cassette(config, ASK, new dev.resilienceharness.cassette.CassetteStream(recorded));

        try (ReplayProxy proxy = ReplayProxy.builder(config).build().start()) {
            ReadNamed whole = readMessages(proxy);
            assertEquals(null, whole.failure());
            assertEquals(recorded.stream().map(dev.resilienceharness.cassette.StreamEvent::event).toList(),
                    whole.names(), "every recorded event, under its name");
            assertEquals("message_start", whole.names().get(0));
            assertEquals("message_stop", whole.names().get(whole.names().size() - 1));
            for (Named e : whole.events()) {
                assertEquals(e.event(), Json.readTree(e.data()).path("type").asString(), "the data's type is its name");
            }
            assertEquals("Fix the null check.", whole.text());
            assertEquals(Json.readTree("{\"path\":\"src/Main.java\",\"line\":12}"),
                    Json.readTree(whole.toolInput()));
            for (int i = 0; i < recorded.size(); i++) {
                assertTrue(whole.events().get(i).atMs() >= recorded.get(i).atMs() - 2,
                        "each event is sent no sooner than its recorded offset: " + whole.events() + " against "
                                + recorded);
            }
        }
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("cut").timeFactor(0).build().start()) {
            ReadNamed cut = readMessages(proxy);
            assertEquals(recorded.subList(0, 3).stream().map(dev.resilienceharness.cassette.StreamEvent::event)
                    .toList(), cut.names(), "three events, then the connection drops");
            assertTrue(cut.failure() != null, "the client's read fails as on a dropped connection");
            ReadNamed retried = readMessages(proxy);
            assertEquals(null, retried.failure());
            assertEquals("Fix the null check.", retried.text(), "the retry's stream is whole");
        }
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("error").timeFactor(0).build().start()) {
            ReadNamed error = readMessages(proxy);
            assertEquals(null, error.failure(), "an error event ends the stream normally");
            assertEquals(List.of("message_start", "content_block_start", "error"), error.names());
            JsonNode body = Json.readTree(error.events().get(2).data());
            assertEquals("error", body.path("type").asString());
            assertEquals("overloaded_error", body.at("/error/type").asString(), body.toString());
        }
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("api-error").timeFactor(0).build().start()) {
            ReadNamed error = readMessages(proxy);
            assertEquals(List.of("message_start", "content_block_start", "error"), error.names());
            assertEquals("api_error", Json.readTree(error.events().get(2).data()).at("/error/type").asString(),
                    "the error type the fault names");
        }
    }

    @Test
    void aMessagesAnswerRecordedWholeIsStreamedAsTheApiWouldWithATruncatedToolInputAndALateFirstEvent()
            throws Exception {
        HarnessConfig config = config();
        cassette(config, ASK.replace(",\"stream\":true", ""), null);

        try (ReplayProxy proxy = ReplayProxy.builder(config).build().start()) {
            ReadNamed whole = readMessages(proxy);
            assertEquals(null, whole.failure());
            assertEquals(dev.resilienceharness.http.MessageStreams.of(Json.readTree(MESSAGE), 0).stream()
                    .map(dev.resilienceharness.cassette.StreamEvent::event).toList(), whole.names());
            assertEquals("Fix the null check.", whole.text());
            assertEquals(Json.readTree("{\"path\":\"src/Main.java\",\"line\":12}"),
                    Json.readTree(whole.toolInput()));
        }
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("truncated").timeFactor(0).build().start()) {
            ReadNamed truncated = readMessages(proxy);
            assertEquals(null, truncated.failure());
            assertEquals("message_stop", truncated.names().get(truncated.names().size() - 1),
                    "the stream ends normally");
            String input = truncated.toolInput();
            assertTrue(!input.isEmpty(), "the tool_use input arrives in input_json_delta pieces");
            assertThrows(tools.jackson.core.JacksonException.class, () -> Json.readTree(input),
                    "the tool input stops mid-JSON: " + input);
        }
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("late").build().start()) {
            ReadNamed late = readMessages(proxy);
            assertEquals(null, late.failure());
            assertTrue(late.events().get(0).atMs() >= 300 - 2, "the first event waits for elapsed_ms: "
                    + late.events());
            assertEquals("Fix the null check.", late.text());
        }
    }

    // --- OpenAI Responses -----------------------------------------------------------------------------------------

    static final String RESPOND = "{\"model\":\"gpt-4.1-mini\",\"stream\":true,\"input\":\"plan the fix\"}";

    @Test
    void aResponsesAnswerIsStreamedAsTheApisNamedEventsWithItsCutAndErrorEvent() throws Exception {
        HarnessConfig config = config();
        String response = dev.resilienceharness.http.ResponseStreamsTest.RESPONSE;
        new dev.resilienceharness.cassette.CassetteStore(config.cassettes(), VolatilePaths.of(config.volatilePaths()),
                Mode.RECORD, java.util.function.UnaryOperator.identity()).write(
                (tools.jackson.databind.node.ObjectNode) Json.readTree(RESPOND.replace(",\"stream\":true", "")),
                Json.readTree(response), new dev.resilienceharness.cassette.Timing(20L, 60L), "plan", null);
        List<String> names = dev.resilienceharness.http.ResponseStreams.of(Json.readTree(response), 0).stream()
                .map(dev.resilienceharness.cassette.StreamEvent::event).toList();

        try (ReplayProxy proxy = ReplayProxy.builder(config).build().start()) {
            ReadNamed whole = readNamed(proxy, "/v1/responses", RESPOND);
            assertEquals(null, whole.failure());
            assertEquals(names, whole.names(), "the events the Responses API sends, under their names");
            for (Named e : whole.events()) {
                assertEquals(e.event(), Json.readTree(e.data()).path("type").asString(), "the data's type is its name");
            }
            assertEquals("Read the logs, then patch the null check.", whole.responsesText());
            JsonNode completed = Json.readTree(whole.events().get(whole.events().size() - 1).data());
            assertEquals("response.completed", completed.path("type").asString());
            assertEquals(14, completed.at("/response/usage/output_tokens").asInt());
            assertTrue(whole.events().get(0).atMs() >= 20 - 2, "the first event at the first-token time");
        }
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("cut").timeFactor(0).build().start()) {
            ReadNamed cut = readNamed(proxy, "/v1/responses", RESPOND);
            assertEquals(names.subList(0, 3), cut.names(), "three events, then the connection drops");
            assertTrue(cut.failure() != null, "the client's read fails as on a dropped connection");
            assertEquals(null, readNamed(proxy, "/v1/responses", RESPOND).failure(), "the retry's stream is whole");
        }
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("error").timeFactor(0).build().start()) {
            ReadNamed error = readNamed(proxy, "/v1/responses", RESPOND);
            assertEquals(null, error.failure(), "an error event ends the stream normally");
            assertEquals(List.of("response.created", "response.in_progress", "error"), error.names());
            JsonNode body = Json.readTree(error.events().get(2).data());
            assertEquals("server_error", body.path("code").asString(), body.toString());
            assertEquals(2, body.path("sequence_number").asInt(), body.toString());
        }
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("failed").timeFactor(0).build().start()) {
            ReadNamed failed = readNamed(proxy, "/v1/responses", RESPOND);
            assertEquals(null, failed.failure(), "response.failed ends the stream normally");
            assertEquals(List.of("response.created", "response.in_progress", "response.failed"), failed.names());
            JsonNode body = Json.readTree(failed.events().get(2).data());
            assertEquals("failed", body.at("/response/status").asString(), body.toString());
            assertEquals("server_error", body.at("/response/error/code").asString(), body.toString());
            assertEquals(2, body.path("sequence_number").asInt(), body.toString());
        }
    }

    @Test
    void aStreamingResponsesRequestIsRecordedThroughServeWithItsNamedEventsAndStreamedToTheClient() throws Exception {
        ReadNamed retried = recordThroughServeThenReplayCut("/v1/responses", RESPOND,
                dev.resilienceharness.http.ResponseStreams.of(
                        Json.readTree(dev.resilienceharness.http.ResponseStreamsTest.RESPONSE), 0), "resp_1");
        assertEquals("Read the logs, then patch the null check.", retried.responsesText());
    }

    @Test
    void aStreamingMessagesRequestIsRecordedThroughServeWithItsNamedEventsAndStreamedToTheClient() throws Exception {
        ReadNamed retried = recordThroughServeThenReplayCut("/v1/messages", ASK,
                dev.resilienceharness.http.MessageStreams.of(Json.readTree(MESSAGE), 0), "msg_1");
        assertEquals("Fix the null check.", retried.text());
        assertEquals(Json.readTree("{\"path\":\"src/Main.java\",\"line\":12}"), Json.readTree(retried.toolInput()));
    }

    /**
     * Records {@code sent} (the provider's stream, 10 ms apart from 20 ms on) through serve in record-missing mode,
     * checks what the client got and what the cassette keeps ({@code id}, the provider's, stripped everywhere), then
     * replays it with the {@code cut} scenario, the stripped id put back as a whole answer has it, and returns the
     * retry's whole stream.
     */
    private ReadNamed recordThroughServeThenReplayCut(String path, String body,
            List<dev.resilienceharness.cassette.StreamEvent> whole, String id) throws Exception {
        HarnessConfig config = config();
        List<dev.resilienceharness.cassette.StreamEvent> sent = new ArrayList<>();
        for (int i = 0; i < whole.size(); i++) {
            sent.add(whole.get(i).later(20 + 10L * i));
        }
        List<String> names = whole.stream().map(dev.resilienceharness.cassette.StreamEvent::event).toList();
        try (ProviderStub stub = ProviderStub.start()) {
            stub.then(new ProviderStub.Named(sent));
            LiveTransport live = LiveTransport.connect(new dev.resilienceharness.config.Provider(stub.baseUrl(),
                    "PROVIDER_API_KEY"), Map.of("PROVIDER_API_KEY", ProviderStub.KEY)::get);
            try (ReplayProxy proxy = ReplayProxy.builder(config).mode(Mode.RECORD_MISSING).upstream(live).build()
                    .start()) {
                ReadNamed recording = readNamed(proxy, path, body);
                assertEquals(null, recording.failure());
                assertEquals(names, recording.names(), "the client gets the API's events while serve records");
            }
            assertEquals(1, stub.received().size());
            assertEquals("text/event-stream", stub.received().get(0).header("accept"));
        }
        Cassette recorded;
        try (Stream<Path> files = Files.list(config.cassettes())) {
            recorded = new CassetteReader(config.cassettes(), VolatilePaths.of(config.volatilePaths()))
                    .read(files.findFirst().orElseThrow());
        }
        assertEquals(names, recorded.stream().events().stream().map(dev.resilienceharness.cassette.StreamEvent::event)
                .toList(), "the cassette keeps every event under its name");
        assertTrue(recorded.stream().events().get(0).atMs() >= 20, recorded.stream().events().toString());
        assertTrue(!recorded.response().has("id"), "volatile response.id is stripped from the response");
        for (dev.resilienceharness.cassette.StreamEvent e : recorded.stream().events()) {
            assertTrue(!e.data().contains(id), "and from the response the events carry: " + e.data());
        }
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("cut").timeFactor(0).build().start()) {
            ReadNamed cut = readNamed(proxy, path, body);
            assertEquals(names.subList(0, 3), cut.names(), "the recorded stream, cut after three events");
            assertTrue(cut.failure() != null);
            ReadNamed retried = readNamed(proxy, path, body);
            assertEquals(null, retried.failure());
            assertEquals(names, retried.names());
            int carrying = 0;
            for (Named e : retried.events()) {
                tools.jackson.databind.node.ObjectNode data = (tools.jackson.databind.node.ObjectNode) Json.readTree(
                        e.data());
                String key = dev.resilienceharness.cassette.CassetteStream.carrier(data);
                if (key != null) {
                    carrying++;
                    assertEquals(id.substring(0, id.indexOf('_') + 1) + recorded.fingerprint(),
                            data.get(key).path("id").asString(), "the replayed events get the id back: " + data);
                }
            }
            assertTrue(carrying > 0);
            return retried;
        }
    }
}
