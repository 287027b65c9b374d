package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.clock.VirtualClock;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.HttpAnswer;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.http.HttpEndpoint;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.trace.CallRecord;
import dev.resilienceharness.trace.RunTrace;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** A run's provider as HTTP: each fault as the answer an SDK sees, every attempt in the trace, ops by scope. */
class ScenarioTransportHttpTest {

    private static final String YAML = """
            version: 1
            loop: com.acme.SdkLoop
            policy: {max_total_wait: 30s}
            scenarios:
              - name: faults
                ops: [plan]
                faults: [{quota: {retry_after: "1.5"}}, quota, {server_error: {status: 502}}, timeout,
                         {slow_first_token: {elapsed_ms: 3000}}, {slow_first_token: {elapsed_ms: 9000}},
                         bad_tool_call, none, crash]
              - name: anthropic
                ops: [plan]
                faults: [quota]
            """;

    private static final byte[] BODY = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"plan\"}]}"
            .getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private HarnessConfig project() throws Exception {
        HarnessConfig config = TestProject.create(dir, YAML);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        ObjectNode completion = (ObjectNode) Json.readTree("{\"choices\":[{\"index\":0,\"message\":{\"role\":"
                + "\"assistant\",\"content\":\"planned\"},\"finish_reason\":\"stop\"}]}");
        store.write((ObjectNode) Json.readTree(BODY), completion, null, "plan");
        return config;
    }

    private static HttpAttempt attempt(String path, int sdkRetry, Duration timeout) {
        return new HttpAttempt("acme-sdk 1.0", "POST", path, Map.of("X-Stainless-Retry-Count",
                List.of(String.valueOf(sdkRetry))), BODY, timeout, sdkRetry);
    }

    /** Runs {@code steps} as a loop would, inside an op scope, and returns what the run left behind. */
    private RunTrace run(HarnessConfig config, String scenario, Consumer<HttpEndpoint> steps) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();
        AgentLoop loop = run -> {
            // Only the first process takes the steps; one restarted after a crash just reports.
            if (!started.getAndSet(true)) {
                try (var scope = run.op("plan")) {
                    steps.accept(run.http());
                }
            }
            return List.of(Outcome.ok("plan", null, 1));
        };
        return Rehearsal.prepare(config, () -> loop).run(scenario(config, scenario), null);
    }

    @Test
    void eachFaultIsTheHttpAnSdkSeesAndEveryAttemptIsOneCall() throws Exception {
        HarnessConfig config = project();
        List<Object> seen = new ArrayList<>();
        RunTrace trace = run(config, "faults", http -> {
            HttpAnswer.Response quota = (HttpAnswer.Response) http.exchange(attempt("/v1/chat/completions", 0, null));
            seen.add(quota.status() + " " + quota.header("Retry-After") + " " + quota.header("retry-after-ms"));
            JsonNode error = Json.readTree(quota.body());
            seen.add(error.get("error").get("code").asString());
            HttpAnswer.Response bare = (HttpAnswer.Response) http.exchange(attempt("chat/completions", 1, null));
            seen.add(bare.status() + " " + bare.header("Retry-After"));
            HttpAnswer.Response server = (HttpAnswer.Response) http.exchange(attempt("chat/completions", 2, null));
            seen.add(server.status());
            HttpAnswer timeout = http.exchange(attempt("chat/completions", 0, Duration.ofSeconds(20)));
            seen.add(timeout);
            HttpAnswer.Response slow = (HttpAnswer.Response) http.exchange(attempt("chat/completions", 0,
                    Duration.ofSeconds(5)));
            seen.add(new String(read(http.body(slow, Duration.ofSeconds(5))), StandardCharsets.UTF_8)
                    .contains("planned"));
            HttpAnswer.Response late = (HttpAnswer.Response) http.exchange(attempt("chat/completions", 0,
                    Duration.ofSeconds(5)));
            assertThrows(SocketTimeoutException.class, () -> http.body(late, Duration.ofSeconds(5)).read());
            HttpAnswer.Response broken = (HttpAnswer.Response) http.exchange(attempt("chat/completions", 0, null));
            String args = Json.readTree(broken.body()).get("choices").get(0).get("message").get("tool_calls").get(0)
                    .get("function").get("arguments").asString();
            assertThrows(RuntimeException.class, () -> Json.readTree(args), "the tool-call JSON is broken");
            http.exchange(attempt("chat/completions", 0, null));
            http.exchange(attempt("chat/completions", 0, null));
            throw new AssertionError("the crash ends the process");
        });
        assertEquals(List.of("429 1.5 1500", "rate_limit_exceeded", "429 null", 502,
                new HttpAnswer.TimedOut(Duration.ofSeconds(20)), true), seen);
        List<CallRecord.Result> results = trace.calls().stream().map(CallRecord::result).toList();
        assertEquals(List.of(CallRecord.Result.QUOTA, CallRecord.Result.QUOTA, CallRecord.Result.TRANSIENT,
                CallRecord.Result.TRANSIENT, CallRecord.Result.OK, CallRecord.Result.TRANSIENT,
                CallRecord.Result.SCHEMA, CallRecord.Result.OK, CallRecord.Result.CRASH), results);
        assertEquals(1, trace.restarts().size(), "the crash went through as ProcessRecycled");
        assertEquals(List.of(0, 1, 2, 0), trace.calls().subList(0, 4).stream().map(CallRecord::sdkRetry).toList());
        assertEquals("acme-sdk 1.0", trace.calls().get(0).sdk());
        assertTrue(trace.calls().get(0).honourable(), "1.5 s is within max_retry_after");
        // Provider time moved the clock (20 s timeout, 3 s first token, 5 s read timeout) but nobody waited.
        assertEquals(Duration.ZERO, trace.totalWait());
        assertEquals(Duration.ofSeconds(28).toNanos(), trace.calls().get(6).atNanos());
    }

    @Test
    void latencyRecordedSendsTheFirstByteAfterTheFirstTokenTimeAndTheRestAfterTheTotal() throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                loop: com.acme.SdkLoop
                policy: {max_total_wait: 30s}
                scenarios:
                  - name: sampled
                    ops: [plan]
                    latency: recorded
                """);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        ObjectNode completion = (ObjectNode) Json.readTree("{\"choices\":[{\"index\":0,\"message\":{\"role\":"
                + "\"assistant\",\"content\":\"planned\"},\"finish_reason\":\"stop\"}]}");
        // One sample, so every draw is the same: the first token at 400 ms, the whole answer at 2.5 s.
        store.write((ObjectNode) Json.readTree(BODY), completion, new dev.resilienceharness.cassette.Timing(400L,
                2500L, List.of(new dev.resilienceharness.cassette.Timing(400L, 2500L))), "plan");
        List<Object> seen = new ArrayList<>();
        RunTrace trace = run(config, "sampled", http -> {
            HttpAnswer.Response whole = (HttpAnswer.Response) http.exchange(attempt("chat/completions", 0, null));
            seen.add(whole.firstByte());
            InputStream body = http.body(whole, Duration.ofSeconds(5));
            byte[] first = new byte[64];
            InputStream late;
            try {
                seen.add(body.read(first, 0, first.length));
                seen.add(new String(read(body), StandardCharsets.UTF_8).contains("planned"));
                HttpAnswer.Response cut = (HttpAnswer.Response) http.exchange(attempt("chat/completions", 0, null));
                late = http.body(cut, Duration.ofSeconds(1));
                seen.add(late.read());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            assertThrows(SocketTimeoutException.class, () -> late.read(first, 0, first.length),
                    "2.1 s between the first byte and the rest is past a 1 s read timeout");
            http.exchange(attempt("chat/completions", 0, null));
        });
        assertEquals(List.of(Duration.ofMillis(400), 1, true, (int) '{'), seen);
        List<CallRecord> calls = trace.calls();
        assertEquals(List.of(CallRecord.Result.OK, CallRecord.Result.TRANSIENT, CallRecord.Result.OK),
                calls.stream().map(CallRecord::result).toList());
        assertEquals(400L, calls.get(0).firstTokenMs());
        // The whole answer took 2.5 s; the cut one 400 ms and the 1 s read timeout.
        assertEquals(List.of(0L, 2_500L, 3_900L), calls.stream().map(c -> c.atNanos() / 1_000_000L).toList());
    }

    @Test
    void theMessagesApiGetsAnthropicsErrorShape() throws Exception {
        HarnessConfig config = project();
        List<JsonNode> errors = new ArrayList<>();
        run(config, "anthropic", http -> errors.add(Json.readTree(
                ((HttpAnswer.Response) http.exchange(attempt("/v1/messages", 0, null))).body())));
        assertEquals("error", errors.get(0).get("type").asString());
        assertEquals("rate_limit_error", errors.get(0).get("error").get("type").asString());
    }

    @Test
    void geminiIsAnsweredAtItsModelsPathsInItsOwnShapes() throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                loop: com.acme.SdkLoop
                policy: {max_total_wait: 30s}
                scenarios:
                  - name: gemini
                    ops: [plan]
                    faults: [quota, bad_tool_call, none, {stream_error: {after_events: 1}}]
                """);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        String sent = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"plan\"}]}],\"tools\":["
                + "{\"functionDeclarations\":[{\"name\":\"plan\",\"parameters\":{\"type\":\"OBJECT\","
                + "\"properties\":{\"goal\":{\"type\":\"STRING\"}}}}]}]}";
        ObjectNode keyed = ApiShapeRequests.gemini("gemini-2.5-flash", sent);
        ObjectNode answer = (ObjectNode) Json.readTree("{\"candidates\":[{\"content\":{\"role\":\"model\","
                + "\"parts\":[{\"text\":\"Planning the work in three steps.\"}]},\"finishReason\":\"STOP\","
                + "\"index\":0}],\"usageMetadata\":{\"totalTokenCount\":12},\"modelVersion\":\"gemini-2.5-flash\"}");
        store.write(keyed, answer, null, "plan");
        byte[] body = sent.getBytes(StandardCharsets.UTF_8);
        String whole = "v1beta/models/gemini-2.5-flash:generateContent";
        String streamed = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";
        List<Object> seen = new ArrayList<>();
        RunTrace trace = run(config, "gemini", http -> {
            HttpAnswer.Response quota = (HttpAnswer.Response) http.exchange(new HttpAttempt("google-genai 2.3.0",
                    "POST", whole, Map.of(), body, null, 0));
            seen.add(quota.status() + " " + Json.readTree(quota.body()).at("/error/status").asString());
            HttpAnswer.Response broken = (HttpAnswer.Response) http.exchange(new HttpAttempt("google-genai 2.3.0",
                    "POST", whole, Map.of(), body, null, 1));
            seen.add(Json.readTree(broken.body()).at("/candidates/0/content/parts/1/functionCall/args").isString());
            for (int i = 0; i < 2; i++) {
                HttpAnswer.Response stream = (HttpAnswer.Response) http.exchange(new HttpAttempt("google-genai 2.3.0",
                        "POST", streamed, Map.of(), body, Duration.ofSeconds(30), 0));
                try {
                    seen.add(new String(read(http.body(stream, Duration.ofSeconds(30))), StandardCharsets.UTF_8));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        });
        assertEquals("429 RESOURCE_EXHAUSTED", seen.get(0));
        assertEquals(true, seen.get(1), "the broken call's args are cut-off JSON");
        String ok = (String) seen.get(2);
        assertTrue(ok.startsWith("data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":"
                + "\"Planning the wor\"}]}"), ok);
        assertEquals(answer, dev.resilienceharness.http.StreamRecording.read(new java.io.ByteArrayInputStream(
                ok.getBytes(StandardCharsets.UTF_8)), () -> 0).completion(), "the chunks add up to the recording");
        String error = (String) seen.get(3);
        assertTrue(error.contains("data: {\"error\":{\"code\":503,"), error);
        assertEquals(List.of(CallRecord.Result.QUOTA, CallRecord.Result.SCHEMA, CallRecord.Result.OK,
                CallRecord.Result.TRANSIENT), trace.calls().stream().map(CallRecord::result).toList());
        assertEquals("google-genai 2.3.0", trace.calls().get(0).sdk());
    }

    @Test
    void bedrockConverseStreamIsAnsweredInEventStreamFramesWithItsInStreamException() throws Exception {
        HarnessConfig config = TestProject.create(dir, """
                version: 1
                loop: com.acme.SdkLoop
                policy: {max_total_wait: 30s}
                scenarios:
                  - name: bedrock
                    ops: [plan]
                    faults: [none, {stream_error: {after_events: 2, error: throttlingException}},
                             {stream_cut: {after_events: 1}}]
                """);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(List.of()));
        String sent = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"plan\"}]}]}";
        String path = "model/amazon.nova-lite-v1%3A0/converse-stream";
        ObjectNode keyed = dev.resilienceharness.http.ApiShape.request("/" + path, (ObjectNode) Json.readTree(sent));
        ObjectNode answer = (ObjectNode) Json.readTree("{\"output\":{\"message\":{\"role\":\"assistant\","
                + "\"content\":[{\"text\":\"Planning the work in three steps.\"}]}},\"stopReason\":\"end_turn\","
                + "\"usage\":{\"inputTokens\":4,\"outputTokens\":8,\"totalTokens\":12},\"metrics\":{\"latencyMs\":50}}");
        store.write(dev.resilienceharness.http.ApiShape.withoutStreaming(keyed), answer, null, "plan");
        byte[] body = sent.getBytes(StandardCharsets.UTF_8);
        List<Object> seen = new ArrayList<>();
        RunTrace trace = run(config, "bedrock", http -> {
            for (int i = 0; i < 3; i++) {
                HttpAnswer.Response stream = (HttpAnswer.Response) http.exchange(new HttpAttempt(
                        "aws-sdk-bedrockruntime 2.59.1", "POST", path, Map.of(), body, Duration.ofSeconds(30), 0));
                seen.add(stream.header("content-type"));
                try (InputStream in = http.body(stream, Duration.ofSeconds(30))) {
                    seen.add(dev.resilienceharness.http.EventStreamFrames.readAll(in.readAllBytes()));
                } catch (java.io.IOException e) {
                    seen.add(e.getMessage());
                }
            }
        });
        assertEquals("application/vnd.amazon.eventstream", seen.get(0));
        @SuppressWarnings("unchecked")
        List<dev.resilienceharness.http.EventStreamFrames.Frame> ok =
                (List<dev.resilienceharness.http.EventStreamFrames.Frame>) seen.get(1);
        assertEquals("messageStart", ok.get(0).header(":event-type"));
        assertEquals("metadata", ok.get(ok.size() - 1).header(":event-type"));
        StringBuilder text = new StringBuilder();
        ok.forEach(f -> text.append(Json.readTree(f.text()).at("/delta/text").asString("")));
        assertEquals("Planning the work in three steps.", text.toString(), "a Converse cassette, streamed");
        @SuppressWarnings("unchecked")
        List<dev.resilienceharness.http.EventStreamFrames.Frame> error =
                (List<dev.resilienceharness.http.EventStreamFrames.Frame>) seen.get(3);
        assertEquals(3, error.size());
        assertEquals("exception", error.get(2).header(":message-type"));
        assertEquals("throttlingException", error.get(2).header(":exception-type"));
        assertTrue(((String) seen.get(5)).contains("the stream was cut after 1 event"), seen.get(5).toString());
        assertEquals(List.of(CallRecord.Result.OK, CallRecord.Result.TRANSIENT, CallRecord.Result.TRANSIENT),
                trace.calls().stream().map(CallRecord::result).toList());
    }

    /** Gemini requests as the harness keys them. */
    private static final class ApiShapeRequests {
        static ObjectNode gemini(String model, String body) {
            return dev.resilienceharness.http.ApiShape.request("/v1beta/models/" + model + ":generateContent",
                    (ObjectNode) Json.readTree(body));
        }
    }

    @Test
    void sdkWaitsAreVirtualAndMarkedAsTheSdks() throws Exception {
        HarnessConfig config = project();
        RunTrace trace = run(config, "anthropic", http -> {
            http.exchange(attempt("chat/completions", 0, null));
            http.sleep(Duration.ofMillis(750), "acme-sdk 1.0");
            http.exchange(attempt("chat/completions", 1, null));
        });
        assertEquals(List.of(new VirtualClock.Wait(0, 750_000_000L, "acme-sdk 1.0")), trace.waits());
        assertEquals(Duration.ofMillis(750), trace.totalWait());
    }

    @Test
    void aRequestOutsideEveryScopeThatMatchesNoOpEndsTheRunNamingTheFix() throws Exception {
        HarnessConfig config = project();
        ObjectNode other = JsonNodeFactory.instance.objectNode().put("model", "other");
        AgentLoop unscoped = run -> {
            run.http().exchange(new HttpAttempt("acme-sdk 1.0", "POST", "chat/completions", Map.of(),
                    Json.compact(other).getBytes(StandardCharsets.UTF_8), null, 0));
            return List.of();
        };
        RunTrace trace = Rehearsal.prepare(config, () -> unscoped).run(scenario(config, "anthropic"), null);
        assertEquals(RunTrace.Kind.UNLISTED_OP, trace.failure().kind());
        assertTrue(trace.failure().message().contains("was made outside every op scope and matches no op of the"
                + " scenario (plan). Make each op's SDK calls inside try (var scope = run.op(\"<op>\"))"),
                trace.failure().message());
    }

    @Test
    void aLabelledCassetteAnswersARequestMadeOutsideAScope() throws Exception {
        HarnessConfig config = project();
        AgentLoop unscoped = run -> {
            HttpAnswer.Response r = (HttpAnswer.Response) run.http().exchange(attempt("chat/completions", 0, null));
            return List.of(Outcome.ok("plan", Json.readTree(r.body()), 1));
        };
        RunTrace trace = Rehearsal.prepare(config, () -> unscoped).run(scenario(config, "anthropic"), null);
        assertEquals("plan", trace.calls().get(0).op(), "attributed by the cassette's label");
    }

    @Test
    void aMissAnSdkWrapsInItsOwnExceptionIsStillReportedAsTheMiss() throws Exception {
        HarnessConfig config = project();
        AgentLoop wraps = run -> {
            try (var scope = run.op("plan")) {
                run.http().exchange(new HttpAttempt("acme-sdk 1.0", "POST", "chat/completions", Map.of(),
                        "{\"model\":\"changed\"}".getBytes(StandardCharsets.UTF_8), null, 0));
            } catch (RuntimeException e) {
                throw new IllegalStateException("acme-sdk: request failed", e);
            }
            return List.of();
        };
        RunTrace trace = Rehearsal.prepare(config, () -> wraps).run(scenario(config, "anthropic"), null);
        assertEquals(RunTrace.Kind.CASSETTE, trace.failure().kind());
        assertTrue(trace.failure().message().startsWith("no cassette for op 'plan': looked for "),
                trace.failure().message());
    }

    private static byte[] read(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
