package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.fault.BadToolCallFault;
import dev.resilienceharness.fault.NoFault;
import dev.resilienceharness.fault.QuotaFault;
import dev.resilienceharness.fault.RecordedLatencyFault;
import dev.resilienceharness.fault.SlowFirstTokenFault;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.FaultAnswer;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.live.ProviderStub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class CassetteAnswersTest {

    static final Duration TEN = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    CassetteStore store;
    CassetteAnswers answers;
    final ObjectNode plan = (ObjectNode) Json.readTree(ReplayProxyTest.PLAN);

    @BeforeEach
    void record() throws Exception {
        store = CassetteStore.replaying(dir.resolve("cassettes"),
                VolatilePaths.of(List.of("response.id", "response.created")));
        store.write(plan, ProviderStub.completion("the plan"), new Timing(40L, 90L));
        answers = new CassetteAnswers(store);
    }

    @Test
    void answersByFingerprintAsLateAsRecordedWithTheIdentifiersPutBack() {
        FaultAnswer a = answers.answer(NoFault.INSTANCE, ApiShape.CHAT_COMPLETIONS, plan, TEN);
        assertEquals(200, a.status());
        assertEquals(Duration.ofMillis(40), a.delay());
        assertEquals("the plan", a.body().at("/choices/0/message/content").asString());
        assertEquals("chatcmpl-" + store.fingerprint(plan), a.body().get("id").asString());
        assertEquals(CassetteAnswers.REPLAY_CREATED, a.body().get("created").asLong());
    }

    @Test
    void latencyRecordedDrawsFromTheSamplesAsAScenarioRunDoes() throws Exception {
        List<Timing> samples = List.of(new Timing(100L, 300L), new Timing(200L, 400L), new Timing(900L, 1500L));
        store.write(plan, ProviderStub.completion("the plan"), new Timing(100L, 300L, samples));
        String fp = store.fingerprint(plan);
        java.util.Set<Duration> seen = new java.util.HashSet<>();
        for (int call = 0; call < 30; call++) {
            FaultAnswer a = answers.answer(RecordedLatencyFault.INSTANCE, ApiShape.CHAT_COMPLETIONS, plan, TEN, call);
            assertEquals(200, a.status());
            assertEquals("the plan", a.body().at("/choices/0/message/content").asString());
            // The draw of a scenario run for the same request and place: serve rehearses what check rehearsed.
            SlowFirstTokenFault drawn = (SlowFirstTokenFault) RecordedLatencyFault.INSTANCE.draw(samples, fp, call);
            assertEquals(Duration.ofMillis(drawn.elapsedMs()), a.delay(), "call " + call);
            assertEquals(a.delay(), answers.answer(RecordedLatencyFault.INSTANCE, ApiShape.CHAT_COMPLETIONS, plan,
                    TEN, call).delay(), "the same call draws the same");
            seen.add(a.delay());
        }
        assertEquals(java.util.Set.of(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(900)), seen,
                "30 calls draw every sample, not the recorded timing alone");
    }

    @Test
    void latencyRecordedWithoutSamplesAnswersAsLateAsRecorded() {
        FaultAnswer a = answers.answer(RecordedLatencyFault.INSTANCE, ApiShape.CHAT_COMPLETIONS, plan, TEN, 3);
        assertEquals(200, a.status());
        assertEquals(Duration.ofMillis(40), a.delay());
    }

    @Test
    void aStreamingRequestReplaysTheCassetteRecordedWithoutStreaming() {
        ObjectNode streaming = plan.deepCopy().put("stream", true);
        streaming.putObject("stream_options").put("include_usage", true);
        assertEquals(200, answers.answer(NoFault.INSTANCE, ApiShape.CHAT_COMPLETIONS, streaming, TEN).status());
    }

    @Test
    void aMissIsA404InTheRequestsShape() {
        ObjectNode other = (ObjectNode) Json.readTree(ReplayProxyTest.PLAN.replace("plan the fix", "plan the fox"));
        FaultAnswer openai = answers.answer(NoFault.INSTANCE, ApiShape.CHAT_COMPLETIONS, other, TEN);
        assertEquals(404, openai.status());
        assertEquals("cassette_miss", openai.body().at("/error/type").asString());
        assertTrue(openai.body().at("/error/message").asString().contains("differs at messages[0].content"));
        FaultAnswer anthropic = answers.answer(NoFault.INSTANCE, ApiShape.MESSAGES, other, TEN);
        assertEquals("not_found_error", anthropic.body().at("/error/type").asString());
        assertEquals(store.fingerprint(other), anthropic.body().at("/error/fingerprint").asString());
    }

    @Test
    void aFaultThatReplacesTheAnswerNeedsNoCassette() {
        ObjectNode unrecorded = (ObjectNode) Json.readTree("{\"model\":\"m\",\"messages\":[]}");
        assertEquals(429, answers.answer(new QuotaFault(null), ApiShape.CHAT_COMPLETIONS, unrecorded, TEN).status());
    }

    @Test
    void anUnusableCassetteIsA500NamingIt() throws Exception {
        Files.writeString(store.fileFor(store.fingerprint(plan)), "{not json");
        store = CassetteStore.replaying(dir.resolve("cassettes"), VolatilePaths.of(List.of()));
        FaultAnswer a = new CassetteAnswers(store).answer(NoFault.INSTANCE, ApiShape.CHAT_COMPLETIONS, plan, TEN);
        assertEquals(500, a.status());
        assertEquals("cassette_unusable", a.body().at("/error/type").asString());
        assertTrue(a.body().at("/error/message").asString().endsWith("Fix or re-record it"));
    }

    @Test
    void slowAndBrokenAnswersAreTheRecordedOnesChanged() {
        assertEquals(Duration.ofMillis(900),
                answers.answer(new SlowFirstTokenFault(900), ApiShape.CHAT_COMPLETIONS, plan, TEN).delay());
        FaultAnswer broken = answers.answer(BadToolCallFault.INSTANCE, ApiShape.CHAT_COMPLETIONS, plan, TEN);
        assertEquals("tool_calls", broken.body().at("/choices/0/finish_reason").asString());
    }
}
