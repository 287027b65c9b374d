package dev.resilienceharness.drift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.RecordSummary;
import dev.resilienceharness.live.Recorder;
import dev.resilienceharness.secrets.RecordingRedaction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class DriftCheckTest {

    static final String KEY = "sk-test-LoopbackOnlyKey0123456789abcdef";
    static final String SECRET = "sk-proj-Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gFeDcBa9876";

    @TempDir
    Path dir;

    private DriftStub stub;
    private HarnessConfig config;

    @BeforeEach
    void recordTheFirstPass() throws Exception {
        stub = new DriftStub();
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, """
                version: 1
                policy:
                  max_total_wait: 30s
                requests:
                  lookup:
                    model: m
                    messages: [{role: user, content: where is order 7}]
                    tools:
                      - type: function
                        function:
                          name: lookup
                          parameters: {type: object, properties: {order: {type: integer}}, required: [order]}
                  summary: {model: m, messages: [{role: user, content: sum it up}]}
                scenarios:
                  - name: find
                    ops: [lookup]
                  - name: both
                    ops: [lookup, summary]
                provider:
                  base_url: %s
                  api_key_env: PROVIDER_API_KEY
                drift:
                  latency_margin: 10s
                """.formatted(stub.baseUrl()), StandardCharsets.UTF_8);
        // A busy machine may answer a loopback request hundreds of milliseconds late: only the latency test
        // below tolerates less.
        config = ConfigLoader.load(yaml);
        RecordSummary recorded = new Recorder(config, Mode.RECORD, live(), RecordingRedaction.forConfig(config))
                .record();
        assertEquals(2, recorded.count(RecordSummary.Result.RECORDED), recorded.entries().toString());
        stub.requests.set(0);
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    private LiveTransport live() throws Exception {
        return LiveTransport.connect(config.provider(), Map.of("PROVIDER_API_KEY", KEY)::get);
    }

    private DriftResult drift(DriftOptions options) throws Exception {
        return new DriftCheck(config, live(), RecordingRedaction.forConfig(config)).run(options);
    }

    private DriftResult drift() throws Exception {
        return drift(DriftOptions.all());
    }

    private Map<String, String> cassettes() throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(config.cassettes())) {
            for (Path p : s.toList()) {
                files.put(p.getFileName().toString(), Files.readString(p));
            }
        }
        return files;
    }

    /** The change lines of the one drifted cassette, which answers {@code op}. */
    private static List<String> changes(DriftResult result, String op) {
        assertEquals(1, result.drifted().size(), result.entries().toString());
        DriftResult.Entry e = result.drifted().get(0);
        assertEquals(op, e.op());
        return e.changes().stream().map(Change::line).toList();
    }

    private static ObjectNode message(ObjectNode answer) {
        return (ObjectNode) answer.get("choices").get(0).get("message");
    }

    @Test
    void anUnchangedProviderGivesNoDriftAndWritesNoCassette() throws Exception {
        Map<String, String> before = cassettes();
        DriftResult result = drift();
        assertEquals(2, result.count(DriftResult.Status.UNCHANGED), result.entries().toString());
        assertEquals(List.of(), result.drifted());
        assertEquals("2 cassettes checked: 0 drifted, 2 unchanged", result.total());
        assertEquals(2, stub.requests.get());
        assertEquals(before, cassettes());
    }

    @Test
    void aNewKeyIsFound() throws Exception {
        stub.change = a -> {
            a.put("service_tier", "default");
            return a;
        };
        DriftResult result = drift();
        assertEquals(2, result.count(DriftResult.Status.DRIFTED));
        assertEquals(List.of("service_tier: added (a string in the live answer)"),
                result.entries().get(0).changes().stream().map(Change::line).toList());
    }

    @Test
    void aRemovedKeyIsFound() throws Exception {
        stub.change = a -> {
            ((ObjectNode) a.get("choices").get(0)).remove("index");
            return a;
        };
        assertEquals(List.of("choices[0].index: removed (the cassette has a number)"),
                drift().entries().get(1).changes().stream().map(Change::line).toList());
    }

    @Test
    void aTypeChangeIsFound() throws Exception {
        stub.change = a -> {
            ((ObjectNode) a.get("usage")).put("total_tokens", "17");
            return a;
        };
        assertEquals(List.of("usage.total_tokens: was a number, is now a string"),
                drift().entries().get(0).changes().stream().map(Change::line).toList());
    }

    @Test
    void aToolCallThatIsGoneIsFoundAndNamesTheCassetteAndOp() throws Exception {
        Map<String, String> before = cassettes();
        stub.change = a -> {
            message(a).remove("tool_calls");
            message(a).put("content", "Order 7 shipped yesterday.");
            ((ObjectNode) a.get("choices").get(0)).put("finish_reason", "stop");
            return a;
        };
        DriftResult result = drift();
        assertEquals(List.of("choices[0].finish_reason: was 'tool_calls', is now 'stop'",
                "choices[0].message.tool_calls: the tool call is gone (the cassette calls 'lookup')",
                "choices[0].message.content: was null, is now a string"), changes(result, "lookup"));
        DriftResult.Entry e = result.drifted().get(0);
        assertTrue(e.cassette().matches("cassettes/[0-9a-f]{16}\\.json"), e.cassette());
        assertEquals(e.cassette() + " (op lookup): choices[0].message.tool_calls: the tool call is gone (the cassette"
                + " calls 'lookup')", e.lines().get(1));
        assertFalse(e.updated());
        assertEquals(before, cassettes());
    }

    @Test
    void argumentsThatBreakTheRequestsSchemaAreFound() throws Exception {
        stub.change = a -> {
            JsonNode calls = message(a).get("tool_calls");
            if (calls != null) {
                ((ObjectNode) calls.get(0).get("function")).put("arguments", "{\"order\": \"seven\"}");
            }
            return a;
        };
        List<String> got = changes(drift(), "lookup");
        assertEquals(1, got.size(), got.toString());
        assertTrue(got.get(0).startsWith("choices[0].message.tool_calls[0].function.arguments: the live arguments"
                + " break the request's schema:"), got.get(0));
    }

    @Test
    void aSlowerProviderIsFoundBeyondTheTolerance() throws Exception {
        Path yaml = config.file();
        Files.writeString(yaml, Files.readString(yaml).replace("latency_margin: 10s", "latency_margin: 300ms"));
        config = ConfigLoader.load(yaml);
        stub.delayMs = 1500;
        DriftResult result = drift(new DriftOptions(null, "find", 5, false, 0));
        List<String> got = changes(result, "lookup");
        assertEquals(1, got.size(), got.toString());
        assertTrue(got.get(0).startsWith("timing.total_ms: "), got.get(0));
        assertTrue(got.get(0).endsWith(" ms recorded, beyond the latency tolerance"), got.get(0));
        assertTrue(result.drifted().get(0).liveTiming().totalMs() >= 1500);
    }

    @Test
    void driftJsonNamesEveryChangeByPath() throws Exception {
        stub.change = a -> {
            message(a).remove("tool_calls");
            return a;
        };
        Path file = DriftJson.write(dir.resolve("target/resilience"), drift());
        JsonNode json = Json.readTree(Files.readString(file));
        assertEquals(2, json.get("checked").asInt());
        assertEquals(1, json.get("drifted").asInt());
        assertEquals(1, json.get("unchanged").asInt());
        JsonNode lookup = json.get("cassettes").get(0);
        assertEquals("lookup", lookup.get("op").asString());
        assertEquals("drifted", lookup.get("status").asString());
        assertEquals("tool_call_gone", lookup.get("changes").get(0).get("kind").asString());
        assertEquals("choices[0].message.tool_calls", lookup.get("changes").get(0).get("path").asString());
        assertEquals("unchanged", json.get("cassettes").get(1).get("status").asString());
        assertTrue(json.get("cassettes").get(1).get("live_timing").has("total_ms"));
    }

    @Test
    void aScenarioSendsOnlyItsOps() throws Exception {
        DriftResult result = drift(new DriftOptions(null, "find", 5, false, 0));
        assertEquals(1, result.entries().size());
        assertEquals("lookup", result.entries().get(0).op());
        assertEquals(1, stub.requests.get());
        DriftCheck.UnknownScenario e = assertThrows(DriftCheck.UnknownScenario.class,
                () -> drift(new DriftOptions(null, "fnd", 5, false, 0)));
        assertEquals("-Dresilience.drift.scenario=fnd: no such scenario; the scenarios are: find, both",
                e.getMessage());
    }

    @Test
    void aSampleSendsThatManyPickedBySeed() throws Exception {
        DriftResult one = drift(new DriftOptions(1, null, 5, false, 7));
        assertEquals(1, one.entries().size());
        assertEquals(1, stub.requests.get());
        assertEquals(one.entries().get(0).cassette(),
                drift(new DriftOptions(1, null, 5, false, 7)).entries().get(0).cassette());
    }

    @Test
    void theRequestBudgetStopsSending() throws Exception {
        DriftResult result = drift(new DriftOptions(null, null, 1, false, 0));
        assertEquals(1, stub.requests.get());
        assertEquals(DriftResult.Status.UNCHANGED, result.entries().get(0).status());
        assertEquals(DriftResult.Status.NOT_SENT, result.entries().get(1).status());
        assertEquals("the drift check's budget of 1 request is used up; raise -Dresilience.drift.maxRequests to"
                + " send more", result.stoppedBy());
        assertEquals("1 cassette checked: 0 drifted, 1 unchanged, 1 not sent", result.total());
    }

    @Test
    void nothingMoreIsSentAfterA429() throws Exception {
        stub.thenStatus(429);
        DriftResult result = drift();
        assertEquals(1, stub.requests.get());
        assertEquals(DriftResult.Status.FAILED, result.entries().get(0).status());
        assertEquals(DriftResult.Status.NOT_SENT, result.entries().get(1).status());
        assertEquals("the provider rejected op 'lookup' for quota; nothing more is sent. Run the drift check again"
                + " later", result.stoppedBy());
        assertEquals(result.stoppedBy(), result.entries().get(1).detail());
    }

    @Test
    void updateReRecordsOnlyTheDriftedCassettesThroughTheRedaction() throws Exception {
        Map<String, String> before = cassettes();
        stub.change = a -> {
            if (message(a).has("tool_calls")) {
                return a;
            }
            message(a).put("content", "rotate " + SECRET);
            a.put("service_tier", "default");
            return a;
        };
        DriftResult result = drift(new DriftOptions(null, null, 5, true, 0));
        DriftResult.Entry summary = result.drifted().get(0);
        assertEquals("summary", summary.op());
        assertTrue(summary.updated());
        Map<String, String> after = cassettes();
        assertEquals(before.keySet(), after.keySet());
        String file = Path.of(summary.cassette()).getFileName().toString();
        assertTrue(after.get(file).contains("\"service_tier\""), after.get(file));
        assertFalse(after.get(file).contains(SECRET), after.get(file));
        assertTrue(after.get(file).contains("[REDACTED:"), after.get(file));
        assertFalse(after.get(file).contains("chatcmpl-x"), "volatile paths are stripped");
        before.remove(file);
        after.remove(file);
        assertEquals(before, after);
        // The re-recorded cassette now matches the provider.
        assertEquals(List.of(), drift().drifted());
    }

    @Test
    void eachCassetteIsSentToTheApiItsAnswerCameFrom() {
        assertEquals(dev.resilienceharness.http.ApiShape.CHAT_COMPLETIONS, DriftCheck.shapeOf(Json.readTree(
                "{\"choices\": []}")));
        assertEquals(dev.resilienceharness.http.ApiShape.RESPONSES, DriftCheck.shapeOf(Json.readTree(
                "{\"object\": \"response\", \"output\": []}")));
        assertEquals(dev.resilienceharness.http.ApiShape.MESSAGES, DriftCheck.shapeOf(Json.readTree(
                "{\"type\": \"message\", \"content\": []}")));
        assertEquals(dev.resilienceharness.http.ApiShape.BEDROCK, DriftCheck.shapeOf(Json.readTree(
                "{\"output\": {\"message\": {\"role\": \"assistant\", \"content\": []}}}")));
        assertEquals(dev.resilienceharness.http.ApiShape.GEMINI, DriftCheck.shapeOf(Json.readTree(
                "{\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": []}}]}")));
    }

    @Test
    void aRecordedConverseStreamIsSentToBedrockForItsAnswerIsTheAssembledConverseOne() throws Exception {
        JsonNode answer = Json.readTree("{\"output\": {\"message\": {\"role\": \"assistant\", \"content\": ["
                + "{\"text\": \"Done.\"}]}}, \"stopReason\": \"end_turn\", \"usage\": {\"inputTokens\": 3,"
                + " \"outputTokens\": 2, \"totalTokens\": 5}, \"metrics\": {\"latencyMs\": 9}}");
        JsonNode assembled = dev.resilienceharness.http.StreamRecording.assemble(
                dev.resilienceharness.http.BedrockStreams.of(answer, 0)).completion();
        assertEquals(answer, assembled);
        assertEquals(dev.resilienceharness.http.ApiShape.BEDROCK, DriftCheck.shapeOf(assembled));
    }

    @Test
    void anOpWithoutACassetteIsNotSent() throws Exception {
        Files.delete(config.cassettes().resolve(Path.of(drift().entries().get(1).cassette()).getFileName()));
        stub.requests.set(0);
        DriftResult result = drift();
        assertEquals(1, stub.requests.get());
        assertEquals(DriftResult.Status.NOT_SENT, result.entries().get(1).status());
        assertEquals("op 'summary' has no cassette; run mvn resilience:record first",
                result.entries().get(1).detail());
    }
}
