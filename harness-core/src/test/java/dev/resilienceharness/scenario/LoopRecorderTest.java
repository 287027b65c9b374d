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
import dev.resilienceharness.testing.ToolOrders;
import dev.resilienceharness.testing.ToolOrders.Shape;
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
import tools.jackson.databind.node.ObjectNode;

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

    /** A loop whose SDK sends op {@code plan}'s request once with each of {@code orders} of its tools. */
    private static AgentLoop sendingTools(List<List<ObjectNode>> orders, List<String> answers) {
        return run -> {
            for (List<ObjectNode> order : orders) {
                try (var scope = run.op("plan")) {
                    HttpAnswer answer = run.http().exchange(new HttpAttempt("acme-sdk 1.0", "POST",
                            "/v1/chat/completions", Map.of(), Json.compact(Shape.CHAT_COMPLETIONS.request("plan",
                                    order)).getBytes(StandardCharsets.UTF_8), null, 0));
                    answers.add(Shape.CHAT_COMPLETIONS.text(Json.readTree(((HttpAnswer.Response) answer).body())));
                }
            }
            return List.of(Outcome.ok("plan", null, 1));
        };
    }

    @Test
    void aRequestWhoseToolsCameInAnotherOrderIsAnsweredFromItsRecordingAndNotRecordedAgain() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML);
        List<List<ObjectNode>> orders = ToolOrders.permutations(Shape.CHAT_COMPLETIONS.tools(4));
        List<HttpAttempt> sent = new ArrayList<>();
        List<String> answers = new ArrayList<>();

        // One run sends the tools in two orders: the second is answered from what the first recorded.
        LoopRecorder.Recording first = LoopRecorder.prepare(config, () -> sendingTools(List.of(orders.get(0),
                orders.get(7)), answers)).recordMissing(scenario(config, "quiet"), provider(sent, 200, PLANNED),
                RecordingRedaction.forConfig(config));
        assertEquals(1, first.recorded());
        assertEquals(1, sent.size());
        assertEquals(List.of("planned", "planned"), answers);

        // A later recording, whose JVM lists the tools in every other order, records nothing.
        answers.clear();
        LoopRecorder.Recording again = LoopRecorder.prepare(config, () -> sendingTools(orders, answers))
                .recordMissing(scenario(config, "quiet"), provider(sent, 200, PLANNED),
                        RecordingRedaction.forConfig(config));
        assertEquals(0, again.recorded());
        assertEquals(1, sent.size(), "no order was sent to the provider");
        assertEquals(orders.size(), answers.size());
        assertTrue(answers.stream().allMatch("planned"::equals), answers.toString());
        try (Stream<Path> list = Files.list(config.cassettes())) {
            assertEquals(1, list.filter(p -> p.toString().endsWith(".json")).count(), "one cassette for every order");
        }
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
