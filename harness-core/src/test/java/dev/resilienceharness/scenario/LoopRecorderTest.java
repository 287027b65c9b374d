package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.brokenloops.CastsTheAnswerLoop;
import dev.resilienceharness.cassette.Cassette;
import dev.resilienceharness.cassette.CassetteReader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpForwarder;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.trace.RunTrace;
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

/** Recording through a team's loop: what no cassette answers is sent once, written labelled, then replayed offline. */
class LoopRecorderTest {

    private static final String YAML = """
            version: 1
            loop: com.acme.SdkLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - {name: calm, ops: [plan], faults: [quota]}
              - {name: quiet, ops: [plan], faults: []}
            """;

    private static final byte[] BODY = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"plan\"}]}"
            .getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    /** A loop whose SDK sends one request for op {@code plan} and reports the answer's text as its value. */
    private static AgentLoop loop() {
        return run -> {
            HttpAnswer answer;
            try (var scope = run.op("plan")) {
                answer = run.http().exchange(new HttpAttempt("acme-sdk 1.0", "POST", "/v1/chat/completions",
                        Map.of(), BODY, null, 0));
            }
            if (answer instanceof HttpAnswer.Response r && r.status() == 200) {
                return List.of(Outcome.ok("plan", Json.readTree(r.body()).at("/choices/0/message/content"), 1));
            }
            return List.of(Outcome.degraded("plan", "no answer", 1));
        };
    }

    private static HttpForwarder provider(List<HttpAttempt> sent, int status, String body) {
        return attempt -> {
            sent.add(attempt);
            return new HttpAnswer.Response(-1, status, Map.of("content-type", List.of("application/json")),
                    body.getBytes(StandardCharsets.UTF_8), Duration.ofMillis(40), null);
        };
    }

    private static final String PLANNED = "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"planned\"},\"finish_reason\":\"stop\"}]}";

    @Test
    void whatNoCassetteAnswersIsSentOnceWrittenLabelledAndThenReplayedOffline() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML);
        List<HttpAttempt> sent = new ArrayList<>();
        LoopRecorder recorder = LoopRecorder.prepare(config, LoopRecorderTest::loop);

        LoopRecorder.Recording recording = recorder.recordMissing(scenario(config, "calm"),
                provider(sent, 200, PLANNED), RecordingRedaction.forConfig(config));

        assertEquals(1, recording.recorded());
        assertEquals(1, sent.size(), "the quota fault is left out: recording runs the scenario without faults");
        assertEquals(1, recording.trace().calls().size());
        List<Path> files;
        try (Stream<Path> list = Files.list(config.cassettes())) {
            files = list.filter(p -> p.toString().endsWith(".json")).toList();
        }
        assertEquals(1, files.size());
        Cassette c = new CassetteReader(config.cassettes(), VolatilePaths.of(config.volatilePaths())).read(files.get(0));
        assertEquals("plan", c.op(), "the cassette is labelled with its op");
        assertEquals(40L, c.timing().totalMs());

        LoopRecorder.Recording again = recorder.recordMissing(scenario(config, "calm"),
                provider(sent, 200, PLANNED), RecordingRedaction.forConfig(config));
        assertEquals(0, again.recorded(), "a request a cassette answers is not sent");
        assertEquals(1, sent.size());

        Rehearsal replay = Rehearsal.prepare(config, LoopRecorderTest::loop);
        RunTrace quiet = replay.run(scenario(config, "quiet"), null);
        assertEquals("planned", quiet.outcomes().get(0).value().asString(), "the recorded answer replays offline");
        RunTrace calm = replay.run(scenario(config, "calm"), null);
        assertEquals(Status.DEGRADED, calm.outcomes().get(0).status(), "replay applies the quota fault");
        assertEquals(1, sent.size(), "replay sends nothing");
    }

    @Test
    void aProviderThatRefusesFailsTheRecordingSayingWhatItAnswered() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML);
        LoopRecorder recorder = LoopRecorder.prepare(config, LoopRecorderTest::loop);

        LoopRecorder.RecordingFailed failed = assertThrows(LoopRecorder.RecordingFailed.class,
                () -> recorder.recordMissing(scenario(config, "calm"), provider(new ArrayList<>(), 500,
                        "{\"error\":\n  \"overloaded\"}"), RecordingRedaction.forConfig(config)));
        assertEquals("cannot record op 'plan': the provider answered 500: {\"error\": \"overloaded\"}",
                failed.getMessage());
    }

    @Test
    void aRehearsalRefusesAnSdkOpWithoutACassetteThatARecordingAccepts() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML);
        SetupException e = assertThrows(SetupException.class, () -> Rehearsal.prepare(config, LoopRecorderTest::loop));
        assertEquals(1, e.problems().size(), e.getMessage());
        assertEquals(config, LoopRecorder.prepare(config, LoopRecorderTest::loop).config());
    }

    private static final String TWO_OPS = """
            version: 1
            loop: dev.resilienceharness.brokenloops.CastsTheAnswerLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - {name: fix-it, ops: [plan, act], faults: []}
            """;

    @Test
    void aLoopThatThrowsFailsTheRecordingNamingTheScenarioTheOpAndItsFrameAndKeepsWhatWasRecorded() throws Exception {
        HarnessConfig config = TestProject.create(dir, TWO_OPS);
        List<HttpAttempt> sent = new ArrayList<>();
        LoopRecorder recorder = LoopRecorder.prepare(config, CastsTheAnswerLoop::new);

        List<String> told = new ArrayList<>();
        LoopRecorder.RecordingFailed failed = assertThrows(LoopRecorder.RecordingFailed.class,
                () -> recorder.recordMissing(scenario(config, "fix-it"), provider(sent, 200, PLANNED),
                        RecordingRedaction.forConfig(config), null, r -> told.add(r.op() + " " + r.round())));
        assertEquals(List.of("plan 1", "act 1"), told, "each recorded request is told before the throw");

        String message = failed.getMessage();
        assertTrue(message.startsWith("cannot record op 'act': the loop threw java.lang.ClassCastException: "),
                message);
        assertTrue(message.endsWith(" at dev.resilienceharness.brokenloops.CastsTheAnswerLoop.run("
                + "CastsTheAnswerLoop.java:23); the 2 cassettes recorded before it are kept"), message);
        assertEquals(2, sent.size());
        try (Stream<Path> list = Files.list(config.cassettes())) {
            assertEquals(2, list.filter(p -> p.toString().endsWith(".json")).count(),
                    "what was recorded before the throw stays on disk");
        }
    }

    @Test
    void eachRecordedRequestIsListedWithItsOpRoundAndCassette() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML.replace("[plan]", "[plan, plan]").replace("com.acme.SdkLoop",
                "com.acme.TwoRoundsLoop"));
        List<HttpAttempt> sent = new ArrayList<>();
        AgentLoop twoRounds = run -> {
            for (String prompt : List.of("plan", "plan again")) {
                try (var scope = run.op("plan")) {
                    run.http().exchange(new HttpAttempt("acme-sdk 1.0", "POST", "/v1/chat/completions", Map.of(),
                            ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt
                                    + "\"}]}").getBytes(StandardCharsets.UTF_8), null, 0));
                }
            }
            return List.of(Outcome.ok("plan", null, 1), Outcome.ok("plan", null, 1));
        };
        LoopRecorder recorder = LoopRecorder.prepare(config, () -> twoRounds);

        LoopRecorder.Recording recording = recorder.recordMissing(scenario(config, "quiet"),
                provider(sent, 200, PLANNED), RecordingRedaction.forConfig(config));

        List<String> lines = recording.requests().stream().map(LoopRecorder.RecordedRequest::line).toList();
        assertEquals(2, lines.size(), lines.toString());
        assertEquals(2, recording.recorded());
        for (int i = 0; i < 2; i++) {
            String line = lines.get(i);
            assertTrue(line.matches("plan round " + (i + 1) + ": recorded cassettes/[0-9a-f]{16}\\.json"), line);
        }
    }
}
