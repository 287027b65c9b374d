package dev.resilienceharness.clients.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.LoopFactory;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.StallBound;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.CallRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * langchain4j's {@code OpenAiResponsesStreamingChatModel} through the adapter: a Responses stream recorded from a
 * provider on 127.0.0.1 with its named events, then replayed event by event with the stream faults.
 */
class ResponsesStreamingTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.langchain4j.TeamLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - {name: calm, ops: [draft], faults: []}
              - {name: cut, ops: [draft], faults: [{stream_cut: {after_events: 5}}]}
              - {name: error-event, ops: [draft], faults: [{stream_error: {after_events: 5}}]}
              - {name: failed-after-text, ops: [draft], faults: [{stream_error: {after_events: 5, error: response.failed}}, none]}
              - {name: malformed, ops: [draft], faults: [{malformed_event: {at: 5}}]}
              - {name: slow, ops: [draft], faults: [{slow_first_token: {elapsed_ms: 3000}}]}
            """;

    @TempDir
    Path dir;

    private HarnessConfig config;
    private final AtomicReference<StreamingLoop> last = new AtomicReference<>();

    private LoopFactory loop() {
        return () -> {
            StreamingLoop loop = new StreamingLoop(run -> HarnessLangChain4j.responsesStreamingBuilder(run)
                    .modelName("gpt-4.1-mini").build());
            last.set(loop);
            return loop;
        };
    }

    @BeforeEach
    void recordTheStreamFromALoopbackProvider() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        try (ProviderStub stub = new ProviderStub()) {
            LoopRecorder.prepare(config, loop()).recordMissing(scenario("calm"), LiveHttp.to(stub.baseUrl(),
                    ProviderStub.KEY, Duration.ofSeconds(10)), RecordingRedaction.forConfig(config));
            assertEquals(1, stub.received.size());
            assertTrue(Json.readTree(stub.received.get(0)).path("stream").asBoolean(), stub.received.get(0));
        }
    }

    private ScenarioResult check(String name) throws Exception {
        return Rehearsal.prepare(config, loop()).check(scenario(name), 2, Rehearsal.RUN_INVARIANTS);
    }

    private Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theStreamIsRecordedWithItsNamedEventsAndReplayedToTheHandler() throws Exception {
        JsonNode cassette;
        try (Stream<Path> files = Files.list(config.cassettes())) {
            cassette = Json.readTree(Files.readAllBytes(files.findFirst().orElseThrow()));
        }
        JsonNode events = cassette.get("stream").get("events");
        assertEquals(ProviderStub.RESPONSES_EVENTS.size(), events.size());
        assertEquals("response.created", events.get(0).get("event").asString());
        assertEquals("response.completed", events.get(events.size() - 1).get("event").asString());
        assertEquals(ProviderStub.RESPONSES_TEXT, cassette.at("/response/output/0/content/0/text").asString());

        ScenarioResult calm = check("calm");
        assertEquals(List.of(), Project.lines(calm));
        assertEquals(List.of("1. reproduce", " 2. fix", " 3. test"), last.get().partials);
        assertEquals(ProviderStub.RESPONSES_TEXT, calm.trace().outcomes().get(0).value().get("text").asString());
        assertEquals(List.of("langchain4j-open-ai 1.19.0"), calm.trace().calls().stream().map(CallRecord::sdk)
                .toList());
    }

    @Test
    void aCutReachesTheHandlerAsAnErrorAfterTheTextBeforeIt() throws Exception {
        ScenarioResult cut = check("cut");
        assertEquals(List.of(CallRecord.Result.TRANSIENT), cut.trace().calls().stream().map(CallRecord::result)
                .toList());
        assertEquals(List.of("1. reproduce"), last.get().partials, "the one text delta before the cut");
        assertEquals(1, last.get().errors.size());
        assertTrue(last.get().errors.get(0).getMessage().contains("the stream was cut after 5 events"),
                last.get().errors.get(0).toString());
        assertEquals(Status.DEGRADED, cut.trace().outcomes().get(0).status());
        assertEquals("cut", cut.trace().streams().get(0).end());
    }

    @Test
    void anErrorEventOrAnEventThatDoesNotParseEndsTheStreamWithoutCallingTheHandler() throws Exception {
        // langchain4j 1.19.0's Responses listener acts on response.failed, not on the API's flat error event; after
        // an event it cannot read it calls the handler no more (the later text delta never arrives). Either way
        // neither onCompleteResponse nor onError is called: a loop waiting on the handler without a bound would wait
        // forever. This one looks when chat returns, and throws.
        for (String name : List.of("error-event", "malformed")) {
            ScenarioResult result = check(name);
            assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream()
                    .map(CallRecord::result).toList(), name);
            assertEquals(List.of("1. reproduce"), last.get().partials, name);
            assertEquals(List.of(), last.get().errors, name + ": the handler heard of no error");
            assertEquals(List.of(name + " [partial_work]: the loop threw IllegalStateException: the streamed answer for"
                    + " draft did not arrive, losing every outcome of the run. A loop must return its outcomes, not"
                    + " throw"), Project.lines(result));
        }
    }

    @Test
    @Timeout(60)
    void aLoopThatWaitsOnTheHandlerWithoutABoundFailsItsRunInsteadOfHangingTheBuild() throws Exception {
        // The same error event, with a loop that joins the handler's future as a loop written against a live
        // provider would: the handler is never called, so the join never returns. The run is left behind once it
        // has made no call and no wait for the stall bound, and reported under bounded waiting.
        String before = System.getProperty(StallBound.PROPERTY);
        System.setProperty(StallBound.PROPERTY, "3s");
        ScenarioResult result;
        try {
            result = Rehearsal.prepare(config, () -> new StreamingLoop(run -> HarnessLangChain4j
                    .responsesStreamingBuilder(run).modelName("gpt-4.1-mini").build(), true))
                    .check(scenario("error-event"), 2, Rehearsal.RUN_INVARIANTS);
        } finally {
            if (before == null) {
                System.clearProperty(StallBound.PROPERTY);
            } else {
                System.setProperty(StallBound.PROPERTY, before);
            }
        }
        RunTrace.Failure failure = result.trace().failure();
        assertEquals(RunTrace.Kind.STALLED, failure.kind(), String.valueOf(failure));
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream()
                .map(CallRecord::result).toList());
        List<String> lines = Project.lines(result);
        assertEquals(1, lines.size(), String.valueOf(lines));
        assertTrue(lines.get(0).startsWith("error-event [bounded_wait] op 'draft': the loop made no call and no wait"
                + " for "), lines.get(0));
        assertTrue(lines.get(0).contains(" ms of real time (the bound is 3s): it was waiting in"
                + " java.util.concurrent.CompletableFuture.join, called from"
                + " dev.resilienceharness.clients.langchain4j.StreamingLoop.run(StreamingLoop.java:"), lines.get(0));
        assertTrue(lines.get(0).contains("It did not end when interrupted; its thread was left behind (bound 3000 ms"
                + " of real time without a call or a wait, actual "), lines.get(0));
        assertTrue(lines.get(0).contains(" ms of real time). Bound the wait: Future.get(timeout, unit) instead of get()"
                + " or join()"), lines.get(0));
    }

    private ScenarioResult emitting(String name, boolean careful, AtomicReference<EmittingStreamingLoop> loop)
            throws Exception {
        return Rehearsal.prepare(config, () -> {
            EmittingStreamingLoop l = new EmittingStreamingLoop(run -> HarnessLangChain4j
                    .responsesStreamingBuilder(run).modelName("gpt-4.1-mini").build(), careful);
            loop.set(l);
            return l;
        }).check(scenario(name), 2, Rehearsal.RUN_INVARIANTS);
    }

    @Test
    void aResponseFailedAfterTextReachesOnErrorOnOneHttpAttemptAndACarefulLoopKeepsTheText() throws Exception {
        AtomicReference<EmittingStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = emitting("failed-after-text", true, loop);
        assertEquals(List.of(), Project.lines(result));
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one HTTP attempt: the 200 was past langchain4j's retries");
        assertEquals(0, result.trace().calls().get(0).sdkRetry());
        // langchain4j 1.19.0's Responses listener acts on response.failed: the handler's onError, after the text.
        assertEquals(1, loop.get().errors.size(), "onError once, per run");
        assertTrue(loop.get().errors.get(0).getMessage().contains("stream_error"), loop.get().errors.toString());
        assertEquals("error_event", result.trace().streams().get(0).end());
        dev.resilienceharness.loop.Outcome draft = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, draft.status());
        assertEquals("1. reproduce", draft.value().get("text").asString(), "the emitted text, kept");
        assertEquals(dev.resilienceharness.loop.Outcome.KEPT, draft.partialText());
    }

    @Test
    void aLoopThatRetriesAfterAResponseFailedsTextFailsUnderPartialWork() throws Exception {
        AtomicReference<EmittingStreamingLoop> loop = new AtomicReference<>();
        ScenarioResult result = emitting("failed-after-text", false, loop);
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry, never langchain4j's");
        assertEquals("1. reproduce" + ProviderStub.RESPONSES_TEXT,
                result.trace().outcomes().get(0).value().get("text").asString(), "the text emitted twice");
        List<String> lines = Project.lines(result).stream().filter(l -> l.contains("[partial_work]")).toList();
        assertEquals(1, lines.size(), String.valueOf(Project.lines(result)));
        assertTrue(lines.get(0).startsWith("failed-after-text [partial_work] op 'draft': its outcome repeats text that"
                + " had already arrived before the stream was ended by an error event after 6 events: \"1. reproduce\""
                + " appears 2 times in it"), lines.get(0));
    }

    @Test
    void aLateFirstEventIsOnTheVirtualClock() throws Exception {
        ScenarioResult slow = check("slow");
        assertEquals(3_000_000_000L, slow.trace().streams().get(0).eventNanos().get(0));
        assertEquals(ProviderStub.RESPONSES_TEXT, String.join("", last.get().partials));
    }
}
