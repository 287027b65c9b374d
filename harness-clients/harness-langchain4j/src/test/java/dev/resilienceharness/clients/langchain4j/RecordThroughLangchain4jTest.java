package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.scenario.SetupException;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A team records its cassettes by running its own langchain4j loop once in record-missing mode against a provider
 * (here a stub on 127.0.0.1), then replays them offline: no {@code requests:} in the yaml, the ops known by the
 * scopes the loop opens.
 */
class RecordThroughLangchain4jTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.langchain4j.TeamLoop
            policy: {max_total_wait: 30s, schema: {repair_attempts: 0}}
            scenarios:
              - name: calm
                ops: [plan, patch, review]
                expect: {status: [ok, ok, ok]}
              - name: quota-on-patch
                ops: [plan, patch, review]
                faults: [none, quota]
                expect: {status: [ok, stopped]}
            """;

    @TempDir
    Path dir;

    private final List<Throwable> seen = new ArrayList<>();

    private HarnessConfig config(String yaml) throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), yaml);
        return ConfigLoader.load(dir.resolve("resilience.yaml"));
    }

    private static Scenario scenario(HarnessConfig config, String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private LoopFactory loop() {
        return () -> new TeamLoop(run -> HarnessLangChain4j.builder(run).modelName("gpt-4o-mini").maxRetries(0)
                .build(), seen);
    }

    private void record(HarnessConfig config, ProviderStub stub) throws Exception {
        LoopRecorder recording = LoopRecorder.prepare(config, loop());
        recording.recordMissing(scenario(config, "calm"), LiveHttp.to(stub.baseUrl(), ProviderStub.KEY,
                Duration.ofSeconds(10)), RecordingRedaction.forConfig(config));
    }

    @Test
    void recordMissingWritesLabelledCassettesThatReplayOffline() throws Exception {
        HarnessConfig config = config(YAML);
        try (ProviderStub stub = new ProviderStub()) {
            record(config, stub);
            assertEquals(3, stub.received.size(), "one request per op reached the provider");

            List<Path> files;
            try (var list = Files.list(config.cassettes())) {
                files = list.sorted().toList();
            }
            assertEquals(3, files.size());
            List<String> labels = new ArrayList<>();
            for (Path file : files) {
                String text = Files.readString(file);
                JsonNode cassette = Json.readTree(text);
                labels.add(cassette.get("op").asString());
                assertEquals("gpt-4o-mini", cassette.get("request").get("model").asString());
                assertFalse(cassette.get("request").get("stream").asBoolean());
                assertFalse(cassette.get("response").has("id"), "volatile response.id is stripped");
                assertFalse(text.contains(ProviderStub.KEY));
                assertFalse(text.contains(HarnessLangChain4j.API_KEY));
            }
            assertEquals(List.of("patch", "plan", "review"), labels.stream().sorted().toList());

            Rehearsal replay = Rehearsal.prepare(config, loop());
            ScenarioResult calm = replay.check(scenario(config, "calm"), 2, Rehearsal.RUN_INVARIANTS);
            assertEquals(List.of(), calm.violations());
            assertEquals(List.of(Status.OK, Status.OK, Status.OK),
                    calm.trace().outcomes().stream().map(Outcome::status).toList());
            assertEquals("App.java", calm.trace().outcomes().get(1).value().get("arguments").get("file").asString());

            ScenarioResult quota = replay.check(scenario(config, "quota-on-patch"), 2, Rehearsal.RUN_INVARIANTS);
            assertEquals(List.of(), quota.violations());
            assertEquals(3, stub.received.size(), "the replays sent nothing");
        }
    }

    @Test
    void aStreamedAnswerIsRecordedThroughTheStreamingModelWithItsChunksAndReplayedToTheHandler() throws Exception {
        HarnessConfig config = config("""
                version: 1
                loop: dev.resilienceharness.clients.langchain4j.TeamLoop
                policy: {max_total_wait: 30s}
                scenarios:
                  - {name: calm, ops: [draft]}
                """);
        List<StreamingLoop> loops = new ArrayList<>();
        LoopFactory streaming = () -> {
            StreamingLoop loop = new StreamingLoop(run -> HarnessLangChain4j.streamingChatModel(run, "gpt-4o-mini"));
            loops.add(loop);
            return loop;
        };
        try (ProviderStub stub = new ProviderStub()) {
            LoopRecorder.prepare(config, streaming).recordMissing(scenario(config, "calm"),
                    LiveHttp.to(stub.baseUrl(), ProviderStub.KEY, Duration.ofSeconds(10)),
                    RecordingRedaction.forConfig(config));
            assertEquals(1, stub.received.size());
        }
        JsonNode cassette;
        try (var list = Files.list(config.cassettes())) {
            cassette = Json.readTree(Files.readAllBytes(list.findFirst().orElseThrow()));
        }
        assertEquals("draft", cassette.get("op").asString());
        assertTrue(cassette.get("request").get("stream").asBoolean(), "langchain4j asked for a stream");
        assertEquals(5, cassette.get("stream").get("events").size(), "role, two pieces, finish, [DONE]");
        assertEquals("streamed answer 1", cassette.at("/response/choices/0/message/content").asString());

        ScenarioResult calm = Rehearsal.prepare(config, streaming).check(scenario(config, "calm"), 2,
                Rehearsal.RUN_INVARIANTS);
        assertEquals(List.of(), calm.violations());
        assertEquals(List.of("streamed ", "answer 1"), loops.get(loops.size() - 1).partials,
                "the recorded chunks, one by one");
        assertEquals("streamed answer 1", calm.trace().outcomes().get(0).value().get("text").asString());
    }

    @Test
    void aProviderThatRefusesTheKeyFailsTheRecordingWithoutARealSleep() throws Exception {
        HarnessConfig config = config(YAML);
        try (ProviderStub stub = new ProviderStub()) {
            LoopRecorder recording = LoopRecorder.prepare(config, () -> new TeamLoop(
                    run -> HarnessLangChain4j.chatModel(run, "gpt-4o-mini"), seen));
            LoopRecorder.RecordingFailed failed = assertThrows(LoopRecorder.RecordingFailed.class,
                    () -> recording.recordMissing(scenario(config, "calm"), LiveHttp.to(stub.baseUrl(), "sk-wrong",
                            Duration.ofSeconds(10)), RecordingRedaction.forConfig(config)));
            assertTrue(failed.getMessage().startsWith("cannot record op 'plan': the provider answered 401"),
                    failed.getMessage());
            // langchain4j's default retries did not ask again: the failure is not retriable. The loop took it for
            // an error of the op and went on, so each op asked once.
            assertEquals(3, stub.received.size());
            assertEquals(3, stub.received.stream().distinct().count());
            assertEquals(3, seen.size());
            seen.forEach(e -> assertTrue(e.getMessage().startsWith("cannot record op '"), e.getMessage()));
        }
    }

    @Test
    void anOpWithNoRecordingIsASetupErrorSayingHowToRecordIt() throws Exception {
        HarnessConfig config = config(YAML);
        SetupException e = assertThrows(SetupException.class, () -> Rehearsal.prepare(config, loop()));
        assertTrue(e.getMessage().contains("no cassette recorded for op 'plan'. This op's calls come from your"
                + " loop's SDK: run mvn resilience:record"), e.getMessage());
    }

    @Test
    void aChangedPromptIsACassetteViolationNamingTheRecordingToRedo() throws Exception {
        HarnessConfig config = config(YAML);
        try (ProviderStub stub = new ProviderStub()) {
            record(config, stub);
        }
        java.util.Map<String, String> prompts = new java.util.HashMap<>(TeamLoop.PROMPTS);
        prompts.put("review", "review the patch twice");
        Rehearsal replay = Rehearsal.prepare(config, () -> new TeamLoop(run -> HarnessLangChain4j
                .chatModel(run, "gpt-4o-mini"), prompts, seen));
        ScenarioResult result = replay.check(scenario(config, "calm"), 1, Rehearsal.RUN_INVARIANTS);

        List<String> cassettes = result.violations().stream().filter(v -> v.invariant() == Invariant.CASSETTES)
                .map(v -> v.message()).toList();
        assertEquals(1, cassettes.size(), result.violations().toString());
        assertTrue(cassettes.get(0).startsWith("no cassette for op 'review': looked for "), cassettes.get(0));
        assertTrue(cassettes.get(0).contains("messages[0].content"), cassettes.get(0));
        assertTrue(cassettes.get(0).contains("mvn resilience:record (loop: " + TeamLoop.class.getName() + ")"),
                cassettes.get(0));
        assertEquals(List.of(), result.trace().realSleeps());
    }
}
