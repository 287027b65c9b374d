package dev.resilienceharness.clients.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.backends.Backend;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.SseException;
import com.anthropic.vertex.backends.VertexBackend;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.StreamTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A client on anthropic-java's Vertex AI backend, bound to a run: the contract, and a stream over
 * {@code :streamRawPredict} with an {@code overloaded_error} inside the 200, as the SDK surfaces it.
 */
class HarnessAnthropicVertexTest extends BackendContract {

    static final String MODEL = "claude-sonnet-4-5@20250929";

    private static final String STREAM_YAML = """
            version: 1
            loop: dev.resilienceharness.clients.anthropic.CarefulStreamingLoop
            policy: {max_attempts: 3, base_delay: 200ms, max_total_wait: 30s}
            scenarios:
              - {name: clean, ops: [plan], faults: []}
              - {name: cut-after-text, ops: [plan], faults: [{stream_cut: {after_events: 3}}, none]}
              - name: overloaded-after-text
                ops: [plan]
                faults: [{stream_error: {after_events: 4, error: overloaded_error}}, none]
                expect: {status: [degraded], attempts: [1]}
            """;

    @Override
    Backend backend() {
        return HarnessAnthropicVertex.backend("my-project", "us-east5");
    }

    @Override
    String model() {
        return MODEL;
    }

    @Override
    String path(boolean stream) {
        return "projects/my-project/locations/us-east5/publishers/anthropic/models/" + MODEL
                + (stream ? ":streamRawPredict" : ":rawPredict");
    }

    @Override
    String basePath() {
        return "/v1";
    }

    @Test
    void theBackendIsTheSdksOwnWithTheTeamsProjectAndAPlaceholderToken() {
        VertexBackend backend = HarnessAnthropicVertex.backend("my-project", "us-east5");
        assertEquals("my-project", backend.project());
        assertEquals("us-east5", backend.region());
        assertEquals(HarnessAnthropic.REPLAY_KEY, backend.googleCredentials().getAccessToken().getTokenValue());
        assertEquals("https://us-east5-aiplatform.googleapis.com", backend.baseUrl());
    }

    /** A streaming project whose plan stream was recorded through the backend from a loopback Vertex AI. */
    private HarnessConfig streaming() throws Exception {
        Path project = Files.createDirectories(dir.resolve("streaming"));
        Files.writeString(project.resolve("resilience.yaml"), STREAM_YAML);
        HarnessConfig streaming = ConfigLoader.load(project.resolve("resilience.yaml"));
        try (CloudStub cloud = new CloudStub()) {
            int recorded = LoopRecorder.prepare(streaming, () -> new CarefulStreamingLoop(true, this::client, MODEL))
                    .recordMissing(Rehearsals.scenario(streaming, "clean"),
                            LiveHttp.to(cloud.baseUrl("/v1"), MessagesStub.KEY, Duration.ofSeconds(10)),
                            RecordingRedaction.forConfig(streaming))
                    .recorded();
            assertEquals(1, recorded);
            assertEquals("/v1/" + path(true), cloud.received().get(0).path());
        }
        return streaming;
    }

    private ScenarioResult streamed(HarnessConfig streaming, String scenario, boolean careful,
            AtomicReference<CarefulStreamingLoop> loop) throws Exception {
        return Rehearsal.prepare(streaming, () -> {
            CarefulStreamingLoop l = new CarefulStreamingLoop(careful, this::client, MODEL);
            loop.set(l);
            return l;
        }).check(Rehearsals.scenario(streaming, scenario), 2, Rehearsal.RUN_INVARIANTS);
    }

    @Test
    void anInStreamOverloadedErrorAfterTextIsTheSdksSseExceptionAndACarefulLoopKeepsTheText() throws Exception {
        HarnessConfig streaming = streaming();
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();

        ScenarioResult result = streamed(streaming, "overloaded-after-text", true, loop);

        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one attempt: the 200 passed the SDK's retry layer, and the loop did not retry");
        SseException e = assertInstanceOf(SseException.class, loop.get().broken.get(0),
                "anthropic-java's own parser threw on the event: error, through the Vertex backend");
        assertTrue(e.getMessage().contains("overloaded_error"), e.getMessage());
        StreamTrace stream = result.trace().streams().get(0);
        assertEquals("error_event", stream.end());
        assertEquals("Allow a plus", stream.partialText());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals("Allow a plus", plan.value().asString(), "the emitted text, kept");
    }

    @Test
    void aStreamCutAfterTextIsTheSdksIoFailureAndACarefulLoopKeepsTheText() throws Exception {
        HarnessConfig streaming = streaming();
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();

        ScenarioResult result = streamed(streaming, "cut-after-text", true, loop);

        assertInstanceOf(AnthropicIoException.class, loop.get().broken.get(0),
                "the SDK's own I/O failure, as on a dropped connection");
        StreamTrace cut = result.trace().streams().get(0);
        assertEquals("cut", cut.end());
        assertEquals("Allow", cut.partialText());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals("Allow", plan.value().asString());
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "a stream broken after its headers is never the SDK's to retry");
    }

    @Test
    void aLoopThatRetriesAfterTextOfAnInStreamOverloadedErrorFailsUnderPartialWork() throws Exception {
        HarnessConfig streaming = streaming();
        AtomicReference<CarefulStreamingLoop> loop = new AtomicReference<>();

        ScenarioResult result = streamed(streaming, "overloaded-after-text", false, loop);

        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry, never the SDK's");
        assertInstanceOf(SseException.class, loop.get().broken.get(0));
        List<Violation> partial = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.PARTIAL_WORK).toList();
        assertEquals(1, partial.size(), result.violations().toString());
        assertEquals("its outcome repeats text that had already arrived before the stream was ended by an error event"
                + " after 5 events: \"Allow a plus\" appears 2 times in it", partial.get(0).message());
    }

    @Override
    void assertCloudsOwnError(com.anthropic.errors.RateLimitException e) {
        assertEquals(java.util.Optional.of("injected quota fault: rate limit reached"), e.apiMessage(),
                "Google's error.message is read as the API's message");
        assertTrue(e.getMessage().contains("\"status\":\"RESOURCE_EXHAUSTED\""), e.getMessage());
    }
}
