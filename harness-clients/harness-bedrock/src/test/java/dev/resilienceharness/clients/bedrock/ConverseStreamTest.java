package dev.resilienceharness.clients.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.clients.tck.AnsweringEndpoint;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.http.EventStreamFrames;
import dev.resilienceharness.http.LiveHttp;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.loop.Status;
import dev.resilienceharness.scenario.LoopRecorder;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.secrets.RecordingRedaction;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.StreamTrace;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import software.amazon.awssdk.services.bedrockruntime.model.ModelStreamErrorException;
import software.amazon.awssdk.services.bedrockruntime.model.ServiceUnavailableException;
import software.amazon.awssdk.services.bedrockruntime.model.ThrottlingException;
import tools.jackson.databind.JsonNode;

/**
 * A loop written on Bedrock's ConverseStream, through {@link HarnessBedrock#asyncClient}: the streams are recorded
 * through the adapter from a loopback provider that speaks the AWS event-stream framing (frames built here byte by
 * byte by the framing's rules), then replayed with the stream faults; the SDK's own event-stream decoder reading the
 * frames is the proof the framing is right.
 */
class ConverseStreamTest {

    private static final String YAML = """
            version: 1
            loop: dev.resilienceharness.clients.bedrock.StreamingBedrockLoop
            policy: {max_attempts: 3, base_delay: 200ms, max_total_wait: 30s}
            scenarios:
              - {name: clean, ops: [plan, patch], faults: []}
              - name: throttled-after-text
                ops: [plan]
                faults: [{stream_error: {after_events: 3, error: throttlingException}}, none]
                expect: {status: [degraded], attempts: [1]}
              - {name: throttled-before-text, ops: [plan], faults: [{stream_error: {after_events: 1, error: throttlingException}}, none]}
              - {name: model-error, ops: [plan], faults: [{stream_error: {after_events: 1}}, none]}
              - {name: cut-before-text, ops: [plan], faults: [{stream_cut: {after_events: 1}}, none]}
              - {name: stall, ops: [plan], faults: [{stream_stall: {after_events: 2, ms: 60000}}, none]}
              - {name: broken-call, ops: [patch], faults: [bad_tool_call]}
              - {name: slow, ops: [plan], faults: [{slow_first_token: {elapsed_ms: 3500}}]}
              - {name: unavailable-then-ok, ops: [plan], faults: [{server_error: {status: 503}}, none]}
              - {name: timeout-then-ok, ops: [plan], faults: [timeout, none]}
              - {name: malformed-first, ops: [plan], faults: [{malformed_event: {at: 0}}, none]}
              - {name: crash-resumes, ops: [plan], faults: [crash], expect: {status: [ok]}}
            """;

    static final List<String> PIECES = List.of("Allow", " a plus", " sign", " in the", " local part.");
    static final List<String> INPUT = List.of("{\"path\":\"src/main/java/Email", "Validator.java\",",
            "\"content\":\"final class EmailValidator {}\"}");

    /** messageStart, the pieces, contentBlockStop, messageStop, metadata. */
    static final int TEXT_EVENTS = PIECES.size() + 4;

    @TempDir
    Path dir;

    private HarnessConfig config;
    private final AtomicInteger served = new AtomicInteger();

    @BeforeEach
    void recordTheStreamsThroughTheAdapterFromALoopbackProvider() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), YAML);
        config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        HttpServer stub = stub();
        try {
            int recorded = LoopRecorder.prepare(config, () -> new StreamingBedrockLoop(true))
                    .recordMissing(scenario("clean"), LiveHttp.to(URI.create("http://127.0.0.1:"
                            + stub.getAddress().getPort() + "/"), null, Duration.ofSeconds(10)),
                            RecordingRedaction.forConfig(config)).recorded();
            assertEquals(2, recorded);
        } finally {
            stub.stop(0);
        }
    }

    @Test
    void theCassetteKeepsEveryEventWithItsTypeAndOffsetAndTheAssembledConverseAnswer() throws Exception {
        JsonNode plan = cassette("plan");
        assertTrue(plan.get("request").get("stream").asBoolean(), "converse-stream keyed as a streamed request");
        assertEquals(StreamingBedrockLoop.MODEL, plan.get("request").get("modelId").asString());
        assertEquals("Allow a plus sign in the local part.", plan.at("/response/output/message/content/0/text")
                .asString());
        assertEquals("end_turn", plan.at("/response/stopReason").asString());
        assertEquals(20, plan.at("/response/usage/inputTokens").asInt());
        JsonNode events = plan.get("stream").get("events");
        assertEquals(TEXT_EVENTS, events.size(), events.toString());
        assertEquals("messageStart", events.get(0).get("event").asString());
        assertEquals("contentBlockDelta", events.get(1).get("event").asString());
        assertEquals("metadata", events.get(events.size() - 1).get("event").asString());
        assertTrue(events.get(events.size() - 1).get("at_ms").asLong() - events.get(0).get("at_ms").asLong()
                >= (PIECES.size() - 1) * 15, "the gaps between frames were recorded: " + events);
        JsonNode patch = cassette("patch");
        assertEquals("src/main/java/EmailValidator.java", patch.at("/response/output/message/content/0/toolUse/input/path")
                .asString(), "the toolUse input fragments, read as the tool's input");
        assertEquals("write_file", patch.at("/request/toolConfig/tools/0/toolSpec/name").asString());

        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult clean = check("clean", true, loop);
        assertEquals(List.of(), clean.violations());
        assertEquals("Allow a plus sign in the local part.", clean.trace().outcomes().get(0).value().asString());
        assertEquals("src/main/java/EmailValidator.java", clean.trace().outcomes().get(1).value().asString(),
                "the tool use assembled by the loop from the SDK's contentBlockDelta events");
        assertEquals(2, served.get(), "the replay sent nothing");
        assertEquals(List.of(TEXT_EVENTS, INPUT.size() + 5), clean.trace().streams().stream()
                .map(StreamTrace::arrived).toList(), "every frame reached the SDK's decoder");
        assertEquals(List.of(), loop.get().handlerErrors);
    }

    @Test
    void anInStreamThrottlingExceptionAfterTextReachesTheHandlerAndTheSdksRetriesNeverSeeIt() throws Exception {
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("throttled-after-text", true, loop);
        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT), result.trace().calls().stream().map(CallRecord::result)
                .toList(), "one HTTP attempt: the 200 passed the SDK's retry stage, and the loop did not retry");
        assertEquals(List.of(0), result.trace().calls().stream().map(CallRecord::sdkRetry).toList());
        ThrottlingException e = assertInstanceOf(ThrottlingException.class, loop.get().broken.get(0),
                "the SDK's own ThrottlingException, from the frame's :exception-type");
        assertTrue(e.getMessage().startsWith("injected stream_error fault"), e.getMessage());
        assertInstanceOf(ThrottlingException.class, loop.get().handlerErrors.get(0),
                "the handler's onError (exceptionOccurred) got it too");
        StreamTrace stream = result.trace().streams().get(0);
        assertEquals("error_event", stream.end());
        assertEquals(4, stream.arrived(), "messageStart, two text deltas, then the exception");
        assertEquals("Allow a plus", stream.partialText());
        Outcome plan = result.trace().outcomes().get(0);
        assertEquals(Status.DEGRADED, plan.status());
        assertEquals("Allow a plus", plan.value().asString(), "the emitted text, kept");
        assertEquals(Outcome.KEPT, plan.partialText());
    }

    @Test
    void aLoopThatRetriesAfterTextOfAnInStreamThrottlingExceptionFailsUnderPartialWork() throws Exception {
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("throttled-after-text", false, loop);
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "the loop's own retry, never the SDK's");
        assertEquals(List.of(0, 0), result.trace().calls().stream().map(CallRecord::sdkRetry).toList());
        assertInstanceOf(ThrottlingException.class, loop.get().broken.get(0));
        assertEquals("Allow a plusAllow a plus sign in the local part.",
                result.trace().outcomes().get(0).value().asString(), "the text emitted twice");
        List<Violation> partial = result.violations().stream()
                .filter(v -> v.invariant() == Invariant.PARTIAL_WORK).toList();
        assertEquals(1, partial.size(), result.violations().toString());
        assertEquals("its outcome repeats text that had already arrived before the stream was ended by an error event"
                + " after 4 events: \"Allow a plus\" appears 2 times in it", partial.get(0).message());
    }

    @Test
    void aDefaultAsyncClientRetriesAnInStreamThrottlingExceptionItselfAndReplaysTheTextIntoTheSameHandler()
            throws Exception {
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("throttled-after-text", x -> new StreamingBedrockLoop(true,
                HarnessBedrock::asyncClient), loop);
        assertEquals(List.of(0, 1), result.trace().calls().stream().map(CallRecord::sdkRetry).toList(),
                "bedrockruntime 2.59.1's retry stage sees the exception event and retries the call itself");
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList());
        assertInstanceOf(ThrottlingException.class, loop.get().handlerErrors.get(0),
                "the handler's onError (exceptionOccurred) got the exception first");
        assertEquals(List.of(), loop.get().broken, "then the call's future completed: the loop never knew");
        assertEquals("Allow a plusAllow a plus sign in the local part.",
                result.trace().outcomes().get(0).value().asString(), "the retry's events went to the same handler");
        Violation partial = result.violations().stream().filter(v -> v.invariant() == Invariant.PARTIAL_WORK)
                .findFirst().orElseThrow(() -> new AssertionError(result.violations()));
        assertEquals("its outcome repeats text that had already arrived before the stream was ended by an error event"
                + " after 4 events: \"Allow a plus\" appears 2 times in it; " + BedrockSdk.LABEL + " made that retry"
                + " itself, after a wait of its own choosing", partial.message(), "the retry-stack audit names the SDK");
        assertEquals("aws-sdk-bedrockruntime retried the broken stream itself and handed the retry's events to the"
                + " same handler: build the client with overrideConfiguration(o -> o.retryStrategy("
                + "AwsRetryStrategy.doNotRetry())) (HarnessBedrock.builder(run).noRetries(), or"
                + " asyncBuilder(run).noRetries()), and let your loop retry only while no content event has arrived",
                partial.hint());
    }

    @Test
    void aDefaultAsyncClientDoesNotRetryAModelStreamErrorExceptionForItsStatusIs424() throws Exception {
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("model-error", x -> new StreamingBedrockLoop(true, HarnessBedrock::asyncClient),
                loop);
        assertEquals(List.of(), result.violations());
        assertEquals(List.of(0, 0), result.trace().calls().stream().map(CallRecord::sdkRetry).toList(),
                "the SDK's one attempt, then the loop's own retry");
        ModelStreamErrorException e = assertInstanceOf(ModelStreamErrorException.class, loop.get().broken.get(0));
        assertEquals(424, e.statusCode(), "bedrockruntime 2.59.1 gives the exception its modelled 424");
    }

    @Test
    void anInStreamErrorBeforeAnyTextIsRetriedByTheCarefulLoop() throws Exception {
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult throttled = check("throttled-before-text", true, loop);
        assertEquals(List.of(), throttled.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), throttled.trace().calls().stream()
                .map(CallRecord::result).toList(), "no text had arrived: the loop retried, the SDK did not");
        assertInstanceOf(ThrottlingException.class, loop.get().broken.get(0));
        assertEquals("Allow a plus sign in the local part.", throttled.trace().outcomes().get(0).value().asString());

        ScenarioResult model = check("model-error", true, loop);
        assertEquals(List.of(), model.violations());
        ModelStreamErrorException e = assertInstanceOf(ModelStreamErrorException.class, loop.get().broken.get(0),
                "Bedrock's usual in-stream error, with the model's own status");
        assertEquals(529, e.originalStatusCode());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), model.trace().calls().stream()
                .map(CallRecord::result).toList());
    }

    @Test
    void aCutStreamIsAnErrorOnTheBodyPublisherThatTheLoopRetries() throws Exception {
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("cut-before-text", true, loop);
        assertEquals(List.of(), result.violations());
        assertEquals("cut", result.trace().streams().get(0).end());
        assertEquals(CallRecord.Result.TRANSIENT, result.trace().calls().get(0).result());
        assertEquals(0, result.trace().calls().get(1).sdkRetry(), "the SDK did not retry a stream that began");
        Throwable cut = loop.get().broken.get(0);
        assertInstanceOf(software.amazon.awssdk.core.exception.SdkClientException.class, cut);
        assertTrue(causes(cut).stream().anyMatch(c -> c instanceof IOException
                && c.getMessage().contains("the stream was cut after 1 event")), causes(cut).toString());
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
    }

    @Test
    void aStallPastTheSdksReadTimeoutIsATimeoutOnTheVirtualClock() throws Exception {
        long t0 = System.nanoTime();
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("stall", true, loop);
        assertEquals("stalled", result.trace().streams().get(0).end());
        assertTrue(result.trace().streams().get(0).endNanos() >= Duration.ofSeconds(30).toNanos(),
                "the SDK's 30-second read timeout passed on the virtual clock");
        assertInstanceOf(software.amazon.awssdk.core.exception.SdkClientException.class, loop.get().broken.get(0));
        assertTrue(causes(loop.get().broken.get(0)).stream().anyMatch(c -> c instanceof java.net.SocketTimeoutException),
                causes(loop.get().broken.get(0)).toString());
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "no real waiting");
    }

    @Test
    void aBrokenToolCallBreaksTheStreamedInputTheLoopAssembles() throws Exception {
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("broken-call", true, loop);
        assertEquals(List.of(CallRecord.Result.SCHEMA), result.trace().calls().stream().map(CallRecord::result)
                .toList());
        String input = loop.get().toolInputs.get(0);
        assertTrue(input.startsWith("{\"path\":\"src/main/java/Email") && input.endsWith("{\"broken\": \""), input);
        assertEquals("schema", result.trace().outcomes().get(0).reason());
        assertEquals("done", result.trace().streams().get(0).end(), "the stream itself ended with its metadata");
    }

    @Test
    void aSlowFirstTokenDelaysTheFirstFrame() throws Exception {
        ScenarioResult result = check("slow", true, new AtomicReference<>());
        assertEquals(3_500_000_000L, result.trace().streams().get(0).eventNanos().get(0));
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
    }

    @Test
    void aDefaultAsyncClientRetriesA503ItselfOnTheVirtualClockAndNoRetriesLeavesItToTheLoop() throws Exception {
        long t0 = System.nanoTime();
        ScenarioResult hidden = check("unavailable-then-ok", loop -> new StreamingBedrockLoop(true,
                HarnessBedrock::asyncClient), new AtomicReference<>());
        assertEquals(List.of(0, 1), hidden.trace().calls().stream().map(CallRecord::sdkRetry).toList(),
                "the SDK's own retry of the 503, an attempt of the run");
        assertEquals(List.of(), hidden.trace().realSleeps(), "its backoff waited on the virtual clock");
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L);
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult own = check("unavailable-then-ok", true, loop);
        assertEquals(List.of(0, 0), own.trace().calls().stream().map(CallRecord::sdkRetry).toList());
        assertInstanceOf(ServiceUnavailableException.class, loop.get().broken.get(0),
                "the 503 is the SDK's exception, from x-amzn-ErrorType");
        assertEquals(List.of(), own.violations());
    }

    @Test
    void aMalformedEventIsAFrameWhosePayloadTheSdkCannotParse() throws Exception {
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("malformed-first", true, loop);
        assertEquals(List.of(), result.violations());
        Throwable e = loop.get().broken.get(0);
        assertInstanceOf(software.amazon.awssdk.core.exception.SdkClientException.class, e);
        assertTrue(causes(e).stream().anyMatch(c -> c.getClass().getSimpleName().equals("JsonEOFException")),
                "the SDK's JSON parser met the cut-off payload: " + causes(e));
        assertEquals("malformed_event", result.trace().streams().get(0).end());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList(), "no text had arrived: the careful loop retried");
    }

    @Test
    void aTimeoutIsTheSdksReadTimeoutOnTheVirtualClock() throws Exception {
        AtomicReference<StreamingBedrockLoop> loop = new AtomicReference<>();
        ScenarioResult result = check("timeout-then-ok", true, loop);
        assertEquals(List.of(), result.violations());
        assertEquals(List.of(CallRecord.Result.TRANSIENT, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList());
        assertTrue(causes(loop.get().broken.get(0)).stream().anyMatch(c -> c instanceof java.net.SocketTimeoutException
                && c.getMessage().equals("timeout: no answer within 30000 ms")), causes(loop.get().broken.get(0))
                .toString());
    }

    @Test
    void aCrashThroughTheAsyncClientRestartsTheProcessAndTheRunResumes() throws Exception {
        ScenarioResult result = check("crash-resumes", true, new AtomicReference<>());
        assertEquals(List.of(), result.violations(), "the loop let the crash signal out of the CompletionException");
        assertEquals(1, result.trace().restarts().size());
        assertEquals(List.of(CallRecord.Result.CRASH, CallRecord.Result.OK), result.trace().calls().stream()
                .map(CallRecord::result).toList());
        assertEquals("Allow a plus sign in the local part.", result.trace().outcomes().get(0).value().asString());
    }

    @Test
    void aRequestNoCassetteAnswersIsACassetteViolation() throws Exception {
        List<Throwable> thrown = new ArrayList<>();
        ScenarioResult result = Rehearsal.prepare(config, () -> run -> {
            try (var scope = run.op("plan")) {
                HarnessBedrock.asyncClient(run).converseStream(StreamingBedrockLoop.request("unrecorded"),
                        software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler.builder()
                                .subscriber(e -> { }).build()).join();
            } catch (CompletionException e) {
                thrown.add(e.getCause());
            }
            return List.of(Outcome.ok("plan", null, 1));
        }).check(scenario("clean"), 1, Rehearsal.RUN_INVARIANTS);
        assertFalse(thrown.isEmpty());
        Violation miss = result.violations().stream().filter(v -> v.invariant() == Invariant.CASSETTES).findFirst()
                .orElseThrow(() -> new AssertionError(result.violations()));
        assertTrue(miss.message().startsWith("no cassette for op 'plan': looked for "), miss.message());
        assertTrue(causes(thrown.get(0)).stream().anyMatch(
                c -> c instanceof dev.resilienceharness.cassette.CassetteMiss), causes(thrown.get(0)).toString());
    }

    @Test
    void converseWorksThroughTheAsyncClientToo() {
        AnsweringEndpoint stub = new AnsweringEndpoint(attempt -> "{\"output\":{\"message\":{\"role\":\"assistant\","
                + "\"content\":[{\"text\":\"Write the tests first.\"}]}},\"stopReason\":\"end_turn\","
                + "\"usage\":{\"inputTokens\":8,\"outputTokens\":5,\"totalTokens\":13},\"metrics\":{\"latencyMs\":90}}");
        ConverseResponse r = HarnessBedrock.asyncBuilder(stub).build().converse(q -> q
                .modelId(StreamingBedrockLoop.MODEL).messages(Message.builder().role(ConversationRole.USER)
                        .content(ContentBlock.fromText("Plan.")).build())).join();
        assertEquals("Write the tests first.", r.output().message().content().get(0).text());
        assertEquals("model/anthropic.claude-3-haiku-20240307-v1%3A0/converse", stub.seen().get(0).path());
        assertEquals(BedrockSdk.LABEL, stub.seen().get(0).sdk());
        assertTrue(Json.readTree(stub.seen().get(0).body()).has("messages"), "the body read from the SDK's publisher");
    }

    private static List<Throwable> causes(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        for (Throwable c = t; c != null && !out.contains(c); c = c.getCause()) {
            out.add(c);
        }
        return out;
    }

    private JsonNode cassette(String op) throws IOException {
        List<JsonNode> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir.resolve("cassettes"))) {
            for (Path f : files.toList()) {
                JsonNode c = Json.readTree(Files.readAllBytes(f));
                if (op.equals(c.path("op").asString(""))) {
                    found.add(c);
                }
            }
        }
        assertEquals(1, found.size(), op);
        return found.get(0);
    }

    private ScenarioResult check(String name, boolean careful, AtomicReference<StreamingBedrockLoop> loop)
            throws Exception {
        return check(name, x -> new StreamingBedrockLoop(careful), loop);
    }

    private ScenarioResult check(String name, java.util.function.Function<Void, StreamingBedrockLoop> loops,
            AtomicReference<StreamingBedrockLoop> loop) throws Exception {
        return Rehearsal.prepare(config, () -> {
            StreamingBedrockLoop l = loops.apply(null);
            loop.set(l);
            return l;
        }).check(scenario(name), 2, Rehearsal.RUN_INVARIANTS);
    }

    private Scenario scenario(String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    /** Bedrock's ConverseStream as AWS event-stream frames, 15 ms apart. */
    private HttpServer stub() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/model/", exchange -> {
            served.incrementAndGet();
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean ok = exchange.getRequestURI().getPath().endsWith("/converse-stream");
            exchange.getResponseHeaders().add("Content-Type", "application/vnd.amazon.eventstream");
            exchange.sendResponseHeaders(ok ? 200 : 400, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                pause(40);
                send(out, "messageStart", "{\"p\":\"abcd\",\"role\":\"assistant\"}");
                if (request.contains("write_file")) {
                    send(out, "contentBlockStart", "{\"contentBlockIndex\":0,\"start\":{\"toolUse\":{\"toolUseId\":"
                            + "\"tooluse_01\",\"name\":\"write_file\"}}}");
                    for (String piece : INPUT) {
                        pause(15);
                        send(out, "contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"toolUse\":{\"input\":"
                                + Json.compact(tools.jackson.databind.node.StringNode.valueOf(piece)) + "}}}");
                    }
                } else {
                    for (String piece : PIECES) {
                        pause(15);
                        send(out, "contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"" + piece
                                + "\"}}");
                    }
                }
                send(out, "contentBlockStop", "{\"contentBlockIndex\":0}");
                send(out, "messageStop", "{\"stopReason\":\"" + (request.contains("write_file") ? "tool_use"
                        : "end_turn") + "\"}");
                send(out, "metadata", "{\"usage\":{\"inputTokens\":20,\"outputTokens\":12,\"totalTokens\":32},"
                        + "\"metrics\":{\"latencyMs\":140}}");
            }
        });
        server.start();
        return server;
    }

    /** One event as Bedrock frames it: its three string headers, its JSON payload, the two CRCs. */
    private static void send(OutputStream out, String type, String payload) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(":event-type", type);
        headers.put(":content-type", "application/json");
        headers.put(":message-type", "event");
        out.write(EventStreamFrames.encode(headers, payload.getBytes(StandardCharsets.UTF_8)));
        out.flush();
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
