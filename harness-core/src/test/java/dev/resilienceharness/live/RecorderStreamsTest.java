package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.cassette.StreamEvent;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Fingerprint;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A streamed answer recorded from a provider on 127.0.0.1 keeps every event with its arrival offset under
 * {@code stream}, and its {@code response} stays the assembled message that the workshop's Python reader reads.
 */
class RecorderStreamsTest {

    static final String SECRET = "sk-proj-FAKEsecretVALUE0123456789abcdef";

    @TempDir
    Path dir;

    private ProviderStub stub;

    @BeforeEach
    void start() throws IOException {
        stub = ProviderStub.start();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    private HarnessConfig config() throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, """
                version: 1
                policy: {max_total_wait: 30s}
                requests:
                  plan: {model: m, stream: true, messages: [{role: user, content: plan the fix}]}
                scenarios:
                  - {name: s, ops: [plan], faults: []}
                provider:
                  base_url: %s
                  api_key_env: PROVIDER_API_KEY
                """.formatted(stub.baseUrl()), StandardCharsets.UTF_8);
        return ConfigLoader.load(yaml);
    }

    private Path record(HarnessConfig config) throws Exception {
        LiveTransport live = LiveTransport.connect(config.provider(), Map.of("PROVIDER_API_KEY", "sk-test")::get,
                Duration.ofSeconds(5), Duration.ofSeconds(5));
        RecordSummary summary = new Recorder(config, Mode.RECORD_MISSING, live, RecordingRedaction.forConfig(config))
                .record();
        assertEquals(RecordSummary.Result.RECORDED, summary.entries().get(0).result(), summary.toString());
        try (Stream<Path> files = Files.list(config.cassettes())) {
            return files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
        }
    }

    @Test
    void aStreamFromTheLoopbackProviderIsRecordedWithEveryEventAndItsTiming() throws Exception {
        stub.then(new ProviderStub.Paced(ProviderStub.chunks("Hello", " there,", " my", " friend."), 60, 25));
        HarnessConfig config = config();
        Path file = record(config);

        Cassette c = new CassetteReader(config.cassettes(), VolatilePaths.of(config.volatilePaths())).read(file);
        assertNotNull(c.stream(), "the cassette keeps the stream");
        List<StreamEvent> events = c.stream().events();
        assertEquals(7, events.size(), "role, four pieces, finish and [DONE]");
        assertEquals("[DONE]", events.get(6).data());
        assertTrue(events.get(0).atMs() >= 60, "the first event came after the provider's 60 ms: " + events);
        for (int i = 1; i < events.size(); i++) {
            assertTrue(events.get(i).atMs() >= events.get(i - 1).atMs(), "offsets never decrease: " + events);
        }
        // An event is read no sooner than it was sent: 60 ms, then six gaps of 25 ms.
        assertTrue(events.get(6).atMs() >= 60 + 6 * 25, "the stream's time is recorded: " + events);
        assertEquals("Hello there, my friend.", c.response().get("choices").get(0).get("message").get("content")
                .asString(), "response is the assembled message");
        assertEquals(events.get(1).atMs(), c.timing().firstTokenMs(), "the first token came with the first piece");
        assertEquals(Fingerprint.of(Json.readTree("{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\","
                + "\"content\":\"plan the fix\"}]}")), c.fingerprint(), "the fingerprint covers only the request");
    }

    @Test
    void volatilePathsAreStrippedInsideEveryEvent() throws Exception {
        stub.then(new ProviderStub.Paced(ProviderStub.chunks("Hi"), 0, 0));
        HarnessConfig config = config();
        JsonNode written = Json.readTree(Files.readAllBytes(record(config)));
        for (JsonNode e : written.get("stream").get("events")) {
            String data = e.get("data").asString();
            if (!data.equals("[DONE]")) {
                JsonNode chunk = Json.readTree(data);
                assertFalse(chunk.has("id"), data);
                assertFalse(chunk.has("created"), data);
                assertFalse(chunk.has("system_fingerprint"), data);
                assertEquals("stub-model", chunk.get("model").asString(), "the rest of the chunk stays");
            }
        }
        assertFalse(written.get("response").has("id"));
    }

    @Test
    void aSecretInAnEventIsRedactedThereAndInTheResponse() throws Exception {
        stub.then(new ProviderStub.Paced(ProviderStub.chunks("your key is ", SECRET), 0, 0));
        HarnessConfig config = config();
        String text = Files.readString(record(config));
        assertFalse(text.contains(SECRET), text);
        assertFalse(text.contains("FAKEsecretVALUE"), text);
        JsonNode written = Json.readTree(text);
        String piece = Json.readTree(written.get("stream").get("events").get(2).get("data").asString())
                .get("choices").get(0).get("delta").get("content").asString();
        assertTrue(piece.startsWith("[REDACTED:openai-key:"), piece);
        assertTrue(written.get("response").get("choices").get(0).get("message").get("content").asString()
                .contains("[REDACTED:openai-key:"));
    }

    @Test
    void theWorkshopsPythonReaderReadsTheAssembledResponse() throws Exception {
        stub.then(new ProviderStub.Paced(ProviderStub.chunks("Hello", " there."), 0, 5));
        HarnessConfig config = config();
        Path file = record(config);
        // What cassettes.py does, in Java: json.loads(path.read_text())["response"], named by fingerprint(request).
        JsonNode root = Json.readTree(Files.readAllBytes(file));
        assertEquals(file.getFileName().toString(), Fingerprint.of(root.get("request")) + ".json");
        assertEquals("Hello there.", root.get("response").get("choices").get(0).get("message").get("content")
                .asString());
        // And the workshop's own code, when a Python is at hand.
        Path script = dir.resolve("cassettes.py");
        try (InputStream in = getClass().getResourceAsStream("/workshop/cassettes.py")) {
            Files.write(script, in.readAllBytes());
        }
        Process python;
        try {
            python = new ProcessBuilder("python3", script.toString(), file.toString()).redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            Assumptions.abort("no python3 on the PATH: " + e.getMessage());
            return;
        }
        assertTrue(python.waitFor(30, TimeUnit.SECONDS), "python3 finished");
        String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, python.exitValue(), out);
        assertEquals(List.of(Fingerprint.of(root.get("request")), "Hello there."), out.lines().toList());
    }
}
