package dev.resilienceharness.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.invariant.CassetteIntegrity;
import dev.resilienceharness.live.RecordSummary.Result;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

class RecorderTest {

    static final String KEY = LiveTransportTest.KEY;
    static final String FAKE_SECRET = "sk-proj-FAKEsecretVALUE0123456789abcdef";

    @TempDir
    Path dir;

    private ProviderStub stub;
    private final AtomicInteger redactions = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        stub = ProviderStub.start();
    }

    @AfterEach
    void stop() {
        stub.close();
    }

    static String yaml(URI baseUrl) {
        return """
                version: 1
                cassettes: cassettes
                policy:
                  max_attempts: 3
                  base_delay: 10ms
                  max_total_wait: 30s
                requests:
                  plan: {model: m, messages: [{role: user, content: plan the fix}]}
                  patch: {model: m, messages: [{role: user, content: write the patch}]}
                  review: {model: m, messages: [{role: user, content: review it}]}
                scenarios:
                  - name: happy
                    ops: [plan, patch]
                    faults: [none, none]
                    expect: {status: [ok, ok]}
                  - name: transient-then-ok
                    ops: [plan, review]
                    faults: [timeout, none]
                    expect: {status: [ok, ok], attempts: [2, 1]}
                provider:
                  base_url: %s
                  api_key_env: PROVIDER_API_KEY
                """.formatted(baseUrl);
    }

    HarnessConfig config() throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, yaml(stub.baseUrl()), StandardCharsets.UTF_8);
        return ConfigLoader.load(yaml);
    }

    /** A stand-in for the secrets component's redactor: drops credential headers, masks key-like strings. */
    UnaryOperator<ObjectNode> redaction() {
        return cassette -> {
            redactions.incrementAndGet();
            for (String part : List.of("request", "response")) {
                JsonNode p = cassette.get(part);
                if (p instanceof ObjectNode o && o.get("headers") instanceof ObjectNode h) {
                    h.remove(List.of("authorization", "api-key", "x-api-key"));
                }
            }
            mask(cassette);
            return cassette;
        };
    }

    private static void mask(JsonNode node) {
        if (node instanceof ObjectNode o) {
            for (String name : new ArrayList<>(o.propertyNames())) {
                JsonNode v = o.get(name);
                if (v.isString() && v.asString().contains("sk-")) {
                    o.set(name, StringNode.valueOf(v.asString().replaceAll("sk-[A-Za-z0-9-]+", "[REDACTED:key]")));
                } else {
                    mask(v);
                }
            }
        } else if (node != null && node.isArray()) {
            node.forEach(RecorderTest::mask);
        }
    }

    Recorder recorder(HarnessConfig config, Mode mode) throws MissingApiKey {
        LiveTransport live = LiveTransport.connect(config.provider(), Map.of("PROVIDER_API_KEY", KEY)::get,
                Duration.ofSeconds(2), Duration.ofSeconds(2));
        return new Recorder(config, mode, live, redaction());
    }

    List<Path> cassettes(HarnessConfig config) throws IOException {
        try (Stream<Path> s = Files.list(config.cassettes())) {
            return s.sorted().toList();
        }
    }

    @Test
    void recordsEveryDistinctOpOnceThenReplaysOfflineWithoutViolations() throws Exception {
        HarnessConfig config = config();
        RecordSummary summary = recorder(config, Mode.RECORD_MISSING).record();

        assertEquals(List.of("plan", "patch", "review"), summary.entries().stream().map(RecordSummary.Entry::op)
                .toList(), "every distinct op, in scenario order");
        assertEquals(3, summary.count(Result.RECORDED), summary.toString());
        assertEquals("3 ops: 3 recorded, 0 already present, 0 failed", summary.total());
        assertEquals(3, stub.received().size());
        for (ProviderStub.Received r : stub.received()) {
            assertEquals("Bearer " + KEY, r.header("authorization"));
        }
        assertEquals(config.request("plan"), stub.received().get(0).json(), "sent exactly as declared");
        assertEquals(3, cassettes(config).size());
        assertEquals(3, redactions.get(), "every cassette passes the redaction before it is written");
        String written = Files.readString(config.cassettes().resolve(summary.entries().get(0).fingerprint() + ".json"));
        assertFalse(written.contains("chatcmpl-stub"), "volatile response.id is stripped before writing");
        assertTrue(written.contains("\"content\": \"answer to plan the fix\""), written);

        stub.close(); // offline from here on
        assertEquals(List.of(), CassetteIntegrity.check(config, true).violations());
        Rehearsal rehearsal = Rehearsal.prepare(config, LoopFactory.builtin());
        for (Scenario s : config.scenarios()) {
            ScenarioResult result = rehearsal.check(s, 2, Rehearsal.RUN_INVARIANTS);
            assertEquals(List.of(), result.violations(), s.name());
        }
    }

    @Test
    void anOpTheYamlDeclaresNoRequestForIsNeitherSentNorWritten() throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, yaml(stub.baseUrl()).replace("ops: [plan, patch]", "ops: [plan, refund, patch]")
                .replace("faults: [none, none]\n", "faults: [none, none, none]\n")
                .replace("expect: {status: [ok, ok]}\n                  - name: transient",
                        "expect: {status: [ok, ok, ok]}\n                  - name: transient"),
                StandardCharsets.UTF_8);
        HarnessConfig config = ConfigLoader.load(yaml);

        RecordSummary summary = recorder(config, Mode.RECORD_MISSING).record();

        assertEquals(List.of("plan", "refund", "patch", "review"), summary.entries().stream()
                .map(RecordSummary.Entry::op).toList());
        assertEquals("refund: FAILED not sent: the yaml declares no request for it. Declare it under requests:, or"
                + " record through the loop that sends it: loop: com.acme.MyLoop in the yaml, or"
                + " -Dresilience.loop=com.acme.MyLoop", summary.entries().get(1).line());
        assertEquals(3, stub.received().size(), "nothing is sent for refund");
        for (ProviderStub.Received r : stub.received()) {
            assertFalse(r.body().contains("\"op\""), "no placeholder body reaches the provider: " + r.body());
        }
        assertEquals(3, cassettes(config).size(), "no cassette for a request the yaml did not declare");
        assertEquals("4 ops: 3 recorded, 0 already present, 1 failed", summary.total());
    }

    @Test
    void aCassetteAnUndeclaredOpAlreadyHasIsKeptAndNothingIsSentForIt() throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, yaml(stub.baseUrl()).replace("ops: [plan, patch]", "ops: [plan, old]"),
                StandardCharsets.UTF_8);
        HarnessConfig config = ConfigLoader.load(yaml);
        Files.createDirectories(config.cassettes());
        String fp = new dev.resilienceharness.cassette.CassetteStore(config.cassettes(),
                dev.resilienceharness.json.VolatilePaths.of(config.volatilePaths()), Mode.RECORD, redaction(), null)
                .fingerprint(config.request("old"));
        String kept = "{\"request\": {\"op\": \"old\"}, \"response\": {\"done\": \"old\"}}\n";
        Files.writeString(config.cassettes().resolve(fp + ".json"), kept, StandardCharsets.UTF_8);

        for (Mode mode : List.of(Mode.RECORD_MISSING, Mode.RECORD)) {
            RecordSummary summary = recorder(config, mode).record();
            RecordSummary.Entry old = summary.entries().get(1);
            assertEquals("old: already present (cassettes/" + fp + ".json)", old.line(), mode.toString());
            assertEquals(kept, Files.readString(config.cassettes().resolve(fp + ".json")), "never rewritten");
        }
        assertTrue(stub.received().stream().noneMatch(r -> r.body().contains("\"op\"")), "nothing sent for old");
    }

    @Test
    void aSecondRecordMissingPassSendsNothing() throws Exception {
        HarnessConfig config = config();
        recorder(config, Mode.RECORD_MISSING).record();
        int sent = stub.received().size();
        List<Path> files = cassettes(config);
        long modified = Files.getLastModifiedTime(files.get(0)).toMillis();

        RecordSummary again = recorder(config, Mode.RECORD_MISSING).record();
        assertEquals(sent, stub.received().size(), "no request for cassettes that exist");
        assertEquals(3, again.count(Result.PRESENT));
        assertEquals("3 ops: 0 recorded, 3 already present, 0 failed", again.total());
        assertTrue(again.entries().get(0).line().startsWith("plan: already present (cassettes/"),
                again.entries().get(0).line());
        assertEquals(modified, Files.getLastModifiedTime(files.get(0)).toMillis());
    }

    @Test
    void recordModeSendsAgainAndRewrites() throws Exception {
        HarnessConfig config = config();
        recorder(config, Mode.RECORD_MISSING).record();
        RecordSummary again = recorder(config, Mode.RECORD).record();
        assertEquals(6, stub.received().size());
        assertEquals(3, again.count(Result.RECORDED));
        assertEquals(3, cassettes(config).size(), "the same fingerprints, rewritten in place");
    }

    @Test
    void samplesSendEachRequestThatOftenAndKeepEveryTimingWithTheFirstAnswer() throws Exception {
        HarnessConfig config = config();
        LiveTransport live = LiveTransport.connect(config.provider(), Map.of("PROVIDER_API_KEY", KEY)::get,
                Duration.ofSeconds(2), Duration.ofSeconds(2));
        java.time.Clock at = java.time.Clock.fixed(java.time.Instant.parse("2026-11-02T09:30:00.250Z"),
                java.time.ZoneOffset.UTC);
        RecordSummary summary = new Recorder(config, Mode.RECORD, live, redaction(), at, 3).record();
        assertEquals(9, stub.received().size(), "three sends for each of three ops");
        assertTrue(summary.entries().get(0).line().endsWith(" (3 timing samples)"), summary.entries().get(0).line());
        dev.resilienceharness.cassette.CassetteReader reader = new dev.resilienceharness.cassette.CassetteReader(
                config.cassettes(), dev.resilienceharness.json.VolatilePaths.of(config.volatilePaths()));
        dev.resilienceharness.cassette.Cassette plan = reader.read(config.cassettes().resolve(
                summary.entries().get(0).fingerprint() + ".json"));
        assertEquals(3, plan.timing().samples().size());
        assertEquals(plan.timing().totalMs(), plan.timing().samples().get(0).totalMs());
        assertEquals(java.time.Instant.parse("2026-11-02T09:30:00Z"), plan.recordedAt(), "to the second");
        assertEquals("answer to plan the fix", plan.response().get("choices").get(0).get("message").get("content")
                .asString());
        assertThrows(IllegalArgumentException.class, () -> new Recorder(config, Mode.RECORD, live, redaction(), at,
                0));
    }

    @Test
    void withoutAClockNoRecordedAtIsWritten() throws Exception {
        HarnessConfig config = config();
        RecordSummary summary = recorder(config, Mode.RECORD).record();
        String written = Files.readString(config.cassettes().resolve(summary.entries().get(0).fingerprint() + ".json"));
        assertFalse(written.contains("recorded_at"), written);
        assertFalse(written.contains("samples"), written);
    }

    @Test
    void noKeyAndNoSecretReachesDisk() throws Exception {
        HarnessConfig config = config();
        ObjectNode leaky = ProviderStub.completion("here is a key someone pasted: " + FAKE_SECRET);
        stub.otherwise(r -> ProviderStub.withHeaders(ProviderStub.ok(leaky),
                Map.of("x-api-key", FAKE_SECRET, "Authorization", "Bearer " + KEY)));
        RecordSummary summary = recorder(config, Mode.RECORD).record();
        assertEquals(3, summary.count(Result.RECORDED));

        List<Path> everything;
        try (Stream<Path> s = Files.walk(dir)) {
            everything = s.filter(Files::isRegularFile).toList();
        }
        assertTrue(everything.size() >= 4);
        for (Path f : everything) {
            String text = Files.readString(f);
            assertFalse(text.contains(KEY), f + " holds the API key");
            assertFalse(text.contains(FAKE_SECRET), f + " holds the secret");
            assertFalse(text.toLowerCase(java.util.Locale.ROOT).contains("x-api-key"), f + " holds a header");
            assertFalse(text.toLowerCase(java.util.Locale.ROOT).contains("authorization"), f + " holds a header");
        }
        String cassette = Files.readString(cassettes(config).get(0));
        assertTrue(cassette.contains("[REDACTED:key]"), cassette);
    }

    @Test
    void failuresAreSummarisedAndTheRestIsRecorded() throws Exception {
        HarnessConfig config = config();
        stub.then(ProviderStub.status(400), ProviderStub.status(503));
        RecordSummary summary = recorder(config, Mode.RECORD_MISSING).record();
        assertEquals(List.of(Result.FAILED, Result.FAILED, Result.RECORDED),
                summary.entries().stream().map(RecordSummary.Entry::result).toList());
        assertTrue(summary.entries().get(0).line().startsWith("plan: FAILED op 'plan': the provider answered HTTP 400"),
                summary.entries().get(0).line());
        assertEquals("patch: FAILED transient: the provider answered 503; record again",
                summary.entries().get(1).line());
        assertEquals(1, cassettes(config).size(), "nothing is written for a failed op");
        assertEquals(2, summary.failures().size());
    }

    @Test
    void aQuotaRejectionStopsTheSending() throws Exception {
        HarnessConfig config = config();
        stub.then(ProviderStub.quota("20"));
        RecordSummary summary = recorder(config, Mode.RECORD_MISSING).record();
        assertEquals(1, stub.received().size(), "nothing more is sent after a 429");
        assertEquals(3, summary.count(Result.FAILED));
        assertTrue(summary.entries().get(0).detail().contains("429 with Retry-After: 20"), summary.toString());
        assertTrue(summary.entries().get(1).detail().startsWith("not sent: the provider rejected op 'plan' for quota"),
                summary.entries().get(1).detail());
    }

    @Test
    void aBrokenToolCallIsRecordedAndSaidToReplayAsASchemaFailure() throws Exception {
        HarnessConfig config = config();
        stub.then(ProviderStub.ok(ProviderStub.toolCall("edit", "{\"path\":")));
        RecordSummary summary = recorder(config, Mode.RECORD_MISSING).record();
        assertEquals(Result.RECORDED, summary.entries().get(0).result());
        assertTrue(summary.entries().get(0).detail().contains("replays as a schema failure"),
                summary.entries().get(0).detail());
    }

    @Test
    void anUnreadableExistingCassetteIsAFailureNotAnOverwrite() throws Exception {
        HarnessConfig config = config();
        recorder(config, Mode.RECORD_MISSING).record();
        Path first = cassettes(config).get(0);
        Files.writeString(first, "{not json");
        RecordSummary summary = recorder(config, Mode.RECORD_MISSING).record();
        assertEquals(1, summary.count(Result.FAILED), summary.toString());
        assertTrue(summary.failures().get(0).detail().startsWith("the existing cassette is unusable"));
        assertEquals("{not json", Files.readString(first));
    }

    @Test
    void twoOpsWithOneRequestAreSentOnce() throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, yaml(stub.baseUrl()).replace("review: {model: m, messages: [{role: user, content:"
                + " review it}]}", "review: {model: m, messages: [{role: user, content: plan the fix}]}"));
        HarnessConfig config = ConfigLoader.load(yaml);
        RecordSummary summary = recorder(config, Mode.RECORD).record();
        assertEquals(2, stub.received().size());
        assertEquals("review: already present (the same request as op 'plan')", summary.entries().get(2).line());
    }

    @Test
    void replayIsNotARecordingMode() throws Exception {
        HarnessConfig config = config();
        assertThrows(IllegalArgumentException.class,
                () -> new Recorder(config, Mode.REPLAY, (op, r) -> null, UnaryOperator.identity()));
    }
}
