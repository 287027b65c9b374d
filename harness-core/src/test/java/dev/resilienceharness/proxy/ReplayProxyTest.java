package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.cassette.Timing;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.ChunkAssembler;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.live.LiveTransport;
import dev.resilienceharness.live.MissingApiKey;
import dev.resilienceharness.live.ProviderStub;
import dev.resilienceharness.transport.ToolCallSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ReplayProxyTest {

    static final String PLAN = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"plan the fix\"}]}";
    static final String PATCH = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"write the patch\"}],"
            + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"edit\",\"parameters\":{\"type\":\"object\","
            + "\"required\":[\"path\"],\"properties\":{\"path\":{\"type\":\"string\"}}}}}]}";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    HarnessConfig project(String scenarios) throws Exception {
        String yaml = """
                version: 1
                cassettes: cassettes
                volatile: [response.id, response.created, response.system_fingerprint, request.user]
                policy: {max_total_wait: 30s}
                scenarios:
                %s
                provider: {base_url: "http://127.0.0.1:9/v1", api_key_env: PROVIDER_API_KEY}
                """.formatted(scenarios);
        Files.writeString(dir.resolve("resilience.yaml"), yaml);
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        store.write(obj(PLAN), ProviderStub.completion("the plan: fix the null check"), new Timing(40L, 90L));
        store.write(obj(PATCH), ProviderStub.toolCall("edit", "{\"path\": \"src/Main.java\"}"), null);
        return config;
    }

    static String plainScenario() {
        return "  - {name: plain, ops: [plan]}";
    }

    static ObjectNode obj(String json) {
        return (ObjectNode) Json.readTree(json);
    }

    HttpResponse<String> post(ReplayProxy proxy, String path, String body) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + proxy.port() + path);
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json").header("Authorization", "Bearer sk-client-side")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(ReplayProxy proxy, String body) throws Exception {
        return post(proxy, "/v1/chat/completions", body);
    }

    @Test
    void answersFromTheCassetteByFingerprintOnBothPaths() throws Exception {
        HarnessConfig config = project(plainScenario());
        try (ReplayProxy proxy = ReplayProxy.builder(config).timeFactor(0).build().start()) {
            assertTrue(proxy.port() > 0);
            assertEquals(URI.create("http://127.0.0.1:" + proxy.port() + "/v1"), proxy.baseUrl());
            for (String path : new String[] {"/v1/chat/completions", "/chat/completions"}) {
                HttpResponse<String> r = post(proxy, path, PLAN);
                assertEquals(200, r.statusCode());
                assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
                JsonNode body = Json.readTree(r.body());
                assertEquals("the plan: fix the null check", body.at("/choices/0/message/content").asString());
                String fp = new CassetteStore(config.cassettes(), VolatilePaths.of(config.volatilePaths()),
                        Mode.REPLAY, x -> x).fingerprint(obj(PLAN));
                assertEquals("chatcmpl-" + fp, body.get("id").asString(), "a stripped id is put back for clients");
                assertEquals(ReplayProxy.REPLAY_CREATED, body.get("created").asLong());
            }
            ObjectNode withUser = obj(PLAN).put("user", "someone-else");
            assertEquals(200, post(proxy, Json.compact(withUser)).statusCode(),
                    "volatile request paths do not change the fingerprint");
            assertEquals(3, proxy.requests());
        }
    }

    @Test
    void aMissNamesTheFingerprintAndTheCommandToRecord() throws Exception {
        HarnessConfig config = project(plainScenario());
        try (ReplayProxy proxy = ReplayProxy.builder(config).build().start()) {
            String other = PLAN.replace("plan the fix", "plan the fox");
            HttpResponse<String> r = post(proxy, other);
            assertEquals(404, r.statusCode());
            JsonNode error = Json.readTree(r.body()).get("error");
            String fp = error.get("fingerprint").asString();
            assertTrue(fp.matches("[0-9a-f]{16}"));
            String message = error.get("message").asString();
            assertTrue(message.contains("looked for " + fp + ".json"), message);
            assertTrue(message.contains("run mvn resilience:record"), message);
            assertTrue(message.contains("which differs at messages[0].content"), message);
            assertEquals("cassette_miss", error.get("type").asString());
        }
    }

    @Test
    void appliesTheScenarioFaultPlanAsRealHttp() throws Exception {
        HarnessConfig config = project("""
                  - name: everything-breaks
                    ops: [plan]
                    faults: [{quota: {retry_after: "2"}}, quota, {server_error: {status: 502}}, timeout, crash,
                             {slow_first_token: {elapsed_ms: 3000}}, none]
                """);
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("everything-breaks").timeFactor(0.05)
                .timeoutDelay(Duration.ofMillis(2000)).build().start()) {
            HttpResponse<String> quota = post(proxy, PLAN);
            assertEquals(429, quota.statusCode());
            assertEquals("2", quota.headers().firstValue("retry-after").orElseThrow());
            assertEquals("rate_limit_exceeded", Json.readTree(quota.body()).at("/error/type").asString());

            HttpResponse<String> bare = post(proxy, PLAN);
            assertEquals(429, bare.statusCode());
            assertTrue(bare.headers().firstValue("retry-after").isEmpty());

            assertEquals(502, post(proxy, PLAN).statusCode());

            long t0 = System.nanoTime();
            assertEquals(504, post(proxy, PLAN).statusCode());
            assertTrue(System.nanoTime() - t0 >= 90_000_000L, "the timeout keeps the client waiting first");

            assertThrows(IOException.class, () -> post(proxy, PLAN), "a crash answers nothing");

            long t1 = System.nanoTime();
            HttpResponse<String> slow = post(proxy, PLAN);
            assertEquals(200, slow.statusCode());
            assertTrue(System.nanoTime() - t1 >= 140_000_000L, "3000 ms scaled by 0.05");

            assertEquals(200, post(proxy, PLAN).statusCode());
            assertEquals(200, post(proxy, PLAN).statusCode(), "after the plan runs out, calls succeed");
        }
    }

    @Test
    void latencyRecordedDrawsEachRequestsDelayFromTheSamplesAsACheckDoes() throws Exception {
        HarnessConfig config = project("  - {name: real, ops: [plan], latency: recorded, faults: [none, timeout]}");
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        List<Timing> samples = List.of(new Timing(7L, 20L), new Timing(13L, 30L), new Timing(29L, 50L));
        store.write(obj(PLAN), ProviderStub.completion("the plan: fix the null check"),
                new Timing(7L, 20L, samples));
        String fp = store.fingerprint(obj(PLAN));
        List<dev.resilienceharness.scenario.ScenarioResult> runs;
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("real").timeFactor(1)
                .timeoutDelay(Duration.ofMillis(1)).build().start()) {
            assertEquals(200, post(proxy, PLAN).statusCode());
            assertEquals(504, post(proxy, PLAN).statusCode());
            for (int i = 0; i < 4; i++) {
                assertEquals(200, post(proxy, PLAN).statusCode(), "after the plan, every call still draws");
            }
            runs = proxy.stop();
        }
        List<dev.resilienceharness.trace.CallRecord> calls = runs.get(runs.size() - 1).trace().calls();
        assertEquals(6, calls.size());
        for (int i : new int[] {0, 2, 3, 4, 5}) {
            long drawn = ((dev.resilienceharness.fault.SlowFirstTokenFault) dev.resilienceharness.fault
                    .RecordedLatencyFault.INSTANCE.draw(samples, fp, i)).elapsedMs();
            assertEquals("latency", calls.get(i).fault(), "call " + i);
            assertEquals(drawn, calls.get(i).firstTokenMs(), "call " + i + " is answered as late as its draw");
        }
    }

    @Test
    void aBadToolCallFaultAnswers200WithBrokenArguments() throws Exception {
        HarnessConfig config = project("  - {name: broken, ops: [patch], faults: [bad_tool_call, bad_tool_call]}");
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("broken").timeFactor(0).build().start()) {
            HttpResponse<String> r = post(proxy, PATCH);
            assertEquals(200, r.statusCode());
            JsonNode body = Json.readTree(r.body());
            String args = body.at("/choices/0/message/tool_calls/0/function/arguments").asString();
            assertTrue(args.endsWith("{\"broken\": \""), args);
            assertNotNull(new ToolCallSchema().problem(obj(PATCH), body));

            HttpResponse<String> plan = post(proxy, PLAN);
            JsonNode added = Json.readTree(plan.body());
            assertEquals("tool_calls", added.at("/choices/0/finish_reason").asString(),
                    "a message without tool calls gets a broken one");
            assertNotNull(new ToolCallSchema().problem(obj(PLAN), added));
        }
    }

    @Test
    void aStreamingRequestIsAnsweredAsServerSentEvents() throws Exception {
        HarnessConfig config = project("  - {name: slow, ops: [plan], faults: [{slow_first_token: {elapsed_ms: 4000}}]}");
        ObjectNode streaming = obj(PLAN).put("stream", true);
        streaming.putObject("stream_options").put("include_usage", true);
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("slow").timeFactor(0.05).build().start()) {
            long t0 = System.nanoTime();
            HttpResponse<String> r = post(proxy, Json.compact(streaming));
            assertEquals(200, r.statusCode());
            assertTrue(System.nanoTime() - t0 >= 190_000_000L, "the first chunk is 4000 ms * 0.05 late");
            assertEquals("text/event-stream", r.headers().firstValue("content-type").orElseThrow());
            ChunkAssembler assembler = new ChunkAssembler();
            for (String line : r.body().split("\n", -1)) {
                assembler.accept(line);
            }
            assembler.finish();
            assertTrue(assembler.done());
            assertTrue(assembler.chunks() > 2, "split into several chunks");
            ObjectNode completion = assembler.completion();
            assertEquals("the plan: fix the null check", completion.at("/choices/0/message/content").asString());
            assertEquals(5, completion.at("/usage/total_tokens").asInt(), "usage as include_usage asks");
        }
    }

    @Test
    void recordModeForwardsWritesARedactedCassetteAndReplayAnswersItOffline() throws Exception {
        HarnessConfig config = project(plainScenario());
        AtomicInteger redacted = new AtomicInteger();
        String fresh = PLAN.replace("plan the fix", "something new");
        try (ProviderStub stub = ProviderStub.start()) {
            LiveTransport live = LiveTransport.connect(new dev.resilienceharness.config.Provider(stub.baseUrl(),
                    "PROVIDER_API_KEY"), Map.of("PROVIDER_API_KEY", ProviderStub.KEY)::get);
            try (ReplayProxy proxy = ReplayProxy.builder(config).mode(Mode.RECORD_MISSING).upstream(live)
                    .redaction(c -> {
                        redacted.incrementAndGet();
                        return c;
                    }).build().start()) {
                HttpResponse<String> r = post(proxy, fresh);
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("answer to something new", Json.readTree(r.body()).at("/choices/0/message/content")
                        .asString());
                assertEquals(200, post(proxy, PLAN).statusCode(), "an existing cassette is answered, not sent");
                assertEquals(1, stub.received().size());
                assertEquals("Bearer " + ProviderStub.KEY, stub.received().get(0).header("authorization"),
                        "the proxy's own key goes upstream, not the client's");
                assertEquals(1, redacted.get());

                stub.then(ProviderStub.quota("7"));
                HttpResponse<String> q = post(proxy, PLAN.replace("plan the fix", "one more"));
                assertEquals(429, q.statusCode());
                assertEquals("7", q.headers().firstValue("retry-after").orElseThrow());
                stub.then(ProviderStub.status(401));
                assertEquals(401, post(proxy, PLAN.replace("plan the fix", "unauthorised")).statusCode());
            }
        }
        try (Stream<Path> files = Files.list(config.cassettes())) {
            assertEquals(3, files.count(), "failed exchanges are not written");
        }
        try (ReplayProxy offline = ReplayProxy.builder(config).timeFactor(0).build().start()) {
            HttpResponse<String> r = post(offline, fresh);
            assertEquals(200, r.statusCode());
            assertEquals("answer to something new", Json.readTree(r.body()).at("/choices/0/message/content")
                    .asString());
        }
        for (Path f : (Iterable<Path>) Files.walk(dir)::iterator) {
            if (Files.isRegularFile(f)) {
                assertFalse(Files.readString(f).contains(ProviderStub.KEY), f.toString());
            }
        }
    }

    @Test
    void refusesWhatIsNotAChatCompletion() throws Exception {
        HarnessConfig config = project(plainScenario());
        try (ReplayProxy proxy = ReplayProxy.builder(config).build().start()) {
            assertEquals(404, post(proxy, "/v1/embeddings", PLAN).statusCode());
            assertEquals(400, post(proxy, "{not json").statusCode());
            assertEquals(400, post(proxy, "[1]").statusCode());
            HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port()
                    + "/v1/chat/completions")).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, get.statusCode());
        }
    }

    @Test
    void aHundredStalledConnectionsDoNotKeepAValidRequestWaiting() throws Exception {
        HarnessConfig config = project(plainScenario());
        List<Socket> stalled = new ArrayList<>();
        // Were the valid request queued behind the stalled ones, it would be answered only once the proxy's read
        // timeout closed them, or not before the client's own timeout, which comes first: so the answer must come
        // while all 100 are still open. No bound on wall-clock time, which a busy machine stretches.
        try (ReplayProxy proxy = ReplayProxy.builder(config).timeFactor(0).readTimeout(Duration.ofSeconds(120))
                .build().start()) {
            try {
                for (int i = 0; i < 100; i++) {
                    Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
                    s.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                            .getBytes(StandardCharsets.US_ASCII)); // mid-headers, then nothing
                    s.getOutputStream().flush();
                    stalled.add(s);
                }
                URI uri = URI.create("http://127.0.0.1:" + proxy.port() + "/v1/chat/completions");
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                        .POST(HttpRequest.BodyPublishers.ofString(PLAN)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), "answered while 100 connections stall");
                for (Socket s : stalled) {
                    s.setSoTimeout(1);
                    try {
                        int read = s.getInputStream().read();
                        throw new AssertionError("a stalled connection was answered or closed (" + read + ") before"
                                + " the valid request was: it waited behind them");
                    } catch (java.net.SocketTimeoutException stillOpen) {
                        // still open and unanswered, as it should be
                    }
                }
            } finally {
                for (Socket s : stalled) {
                    s.close();
                }
            }
        }
    }

    @Test
    void aRequestStalledPastTheReadTimeoutIsClosed() throws Exception {
        HarnessConfig config = project(plainScenario());
        try (ReplayProxy proxy = ReplayProxy.builder(config).readTimeout(Duration.ofMillis(300)).build().start()) {
            for (String partial : new String[] {"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"model\""}) {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
                    s.setSoTimeout(60_000); // were it never closed, the read would wait this long and fail
                    s.getOutputStream().write(partial.getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                    int read;
                    try {
                        read = s.getInputStream().read();
                    } catch (SocketException reset) {
                        read = -1;
                    }
                    assertEquals(-1, read, "the proxy closed the stalled connection: " + partial);
                }
            }
            assertEquals(200, post(proxy, PLAN).statusCode(), "the proxy still serves");
        }
    }

    @Test
    void concurrentTimeoutsAreAnsweredInOneWave() throws Exception {
        int n = 40;
        HarnessConfig config = project("  - {name: slow, ops: [plan], faults: [" + String.join(", ",
                java.util.Collections.nCopies(n, "timeout")) + "]}");
        VirtualDelays delays = new VirtualDelays();
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("slow").timeoutDelay(Duration.ofMillis(2000))
                .delays(delays).build().start()) {
            URI uri = URI.create("http://127.0.0.1:" + proxy.port() + "/v1/chat/completions");
            List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(http.sendAsync(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(120))
                        .POST(HttpRequest.BodyPublishers.ofString(PLAN)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            // All of them wait at once, from the same virtual instant: none holds a thread or waits for another.
            List<VirtualDelays.Pending> waiting = delays.awaitWaiting(n, Duration.ofSeconds(60));
            assertEquals(n, waiting.size());
            for (VirtualDelays.Pending p : waiting) {
                assertEquals(0L, p.sinceNanos(), "every timeout began to wait before the clock moved");
                assertEquals(2_000_000_000L, p.dueNanos(), "every timeout waits its 2 s");
            }
            assertEquals(List.of(), delays.advance(Duration.ofMillis(1999)), "no timeout ends before its 2 s");
            assertTrue(all.stream().noneMatch(CompletableFuture::isDone), "each timeout kept its client waiting");
            List<VirtualDelays.Pending> released = delays.advance(Duration.ofMillis(1));
            assertEquals(n, released.size(), n + " timeouts of 2 s were answered together, not in waves");
            assertEquals(2_000_000_000L, delays.nowNanos(), "in one wave, 2 s after they came");
            for (CompletableFuture<HttpResponse<String>> f : all) {
                assertEquals(504, f.get(120, TimeUnit.SECONDS).statusCode());
            }
        }
    }

    HarnessConfig suite() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: cassettes
                policy: {max_total_wait: 30s, max_attempts: 3, base_delay: 2s}
                requests:
                  plan: %s
                scenarios:
                  - {name: plain, ops: [plan]}
                  - {name: timeouts, ops: [plan], faults: [timeout, timeout, timeout, timeout]}
                """.formatted(PLAN));
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()))
                .write(obj(PLAN), ProviderStub.completion("the plan"), null);
        return config;
    }

    HttpResponse<String> reset(ReplayProxy proxy, String query) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + "/_harness/reset"
                + query)).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void logsOneLinePerRequestWithTheOpTheFaultTheStatusAndTheTime() throws Exception {
        HarnessConfig config = suite();
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("timeouts").timeFactor(0).log(lines::add)
                .build().start()) {
            assertEquals(504, post(proxy, PLAN).statusCode());
            assertEquals(504, post(proxy, PLAN).statusCode());
            reset(proxy, "");
            assertEquals(200, post(proxy, PLAN).statusCode());
            assertEquals(404, post(proxy, PLAN.replace("plan the fix", "unrecorded")).statusCode());
        }
        assertEquals(5, lines.size(), lines.toString());
        assertTrue(lines.get(0).matches("POST /v1/chat/completions op plan, fault timeout: 504 in \\d+ ms"),
                lines.get(0));
        assertTrue(lines.get(2).matches("POST /_harness/reset reset to no scenario, fault -: 200 in \\d+ ms"),
                lines.get(2));
        assertTrue(lines.get(3).startsWith("POST /v1/chat/completions op plan, fault none: 200 in "), lines.get(3));
        assertTrue(lines.get(4).matches("POST /v1/chat/completions fingerprint [0-9a-f]{16}, fault none: 404 in \\d+"
                + " ms"), lines.get(4));
    }

    @Test
    void aResetStartsAFreshRunOfAScenarioAndTheStopWritesEveryRunsReport() throws Exception {
        HarnessConfig config = suite();
        Path out = dir.resolve("target/resilience");
        try (ReplayProxy proxy = ReplayProxy.builder(config).timeFactor(0).reportTo(out).build().start()) {
            assertEquals(200, post(proxy, PLAN).statusCode(), "no scenario: no faults");

            HttpResponse<String> first = reset(proxy, "?scenario=timeouts");
            assertEquals(200, first.statusCode(), first.body());
            JsonNode ended = Json.readTree(first.body());
            assertEquals("timeouts", ended.get("started").asString());
            assertEquals("serve", ended.at("/ended/name").asString());
            assertEquals(1, ended.at("/ended/calls").asInt());

            for (int i = 0; i < 4; i++) {
                assertEquals(504, post(proxy, PLAN).statusCode(), "the plan counts from the reset");
            }
            assertEquals(200, post(proxy, PLAN).statusCode(), "the plan ran out");
            JsonNode storm = Json.readTree(reset(proxy, "?scenario=plain").body()).get("ended");
            assertEquals("timeouts", storm.get("name").asString());
            assertEquals(5, storm.get("calls").asInt());
            assertEquals(3, storm.get("call_budget").asInt());
            assertEquals("budget", storm.at("/violations/0/invariant").asString());
            assertEquals("5 calls", storm.at("/violations/0/actual").asString());

            HttpResponse<String> unknown = reset(proxy, "?scenario=nope");
            assertEquals(404, unknown.statusCode());
            assertTrue(unknown.body().contains("there are [plain, timeouts]"), unknown.body());
            assertEquals(200, post(proxy, PLAN).statusCode());

            List<dev.resilienceharness.scenario.ScenarioResult> runs = proxy.stop();
            assertEquals(List.of("serve", "timeouts", "plain"), runs.stream().map(r -> r.scenario().name()).toList());
        }
        JsonNode report = Json.readTree(Files.readString(out.resolve("report.json")));
        assertEquals(3, report.at("/summary/scenarios").asInt());
        // The client retried the timeouts at once: over budget, and sooner than the declared backoff.
        assertEquals(2, report.at("/summary/violations").asInt());
        assertEquals(1, report.at("/summary/by_invariant/budget").asInt());
        assertEquals(1, report.at("/summary/by_invariant/bounded_wait").asInt());
        assertEquals("timeouts", report.at("/scenarios/1/name").asString());
        assertTrue(Files.exists(out.resolve("report.html")));
    }

    @Test
    void theClientsWaitingIsCheckedAgainstTheBound() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: cassettes
                policy: {max_total_wait: 100ms}
                scenarios:
                  - {name: quota, ops: [plan], faults: [quota]}
                """);
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()))
                .write(obj(PLAN), ProviderStub.completion("the plan"), null);
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("quota").timeFactor(0).build().start()) {
            assertEquals(429, post(proxy, PLAN).statusCode());
            Thread.sleep(300); // the client backs off for real
            assertEquals(200, post(proxy, PLAN).statusCode());
            List<dev.resilienceharness.scenario.ScenarioResult> runs = proxy.stop();
            assertEquals(1, runs.size());
            assertTrue(runs.get(0).trace().totalWait().toMillis() >= 300);
            assertEquals(List.of("budget", "bounded_wait"), runs.get(0).violations().stream()
                    .map(v -> v.invariant().id()).toList(), "a retry after a bare 429 is over budget too");
            assertEquals("bound 100 ms", "bound " + runs.get(0).violations().get(1).bound());
        }
    }

    @Test
    void aBodyOverTheLimitIs413AndABrokenOneSaysWhereWithoutParserInternals() throws Exception {
        HarnessConfig config = project(plainScenario());
        try (ReplayProxy proxy = ReplayProxy.builder(config).build().start()) {
            String huge = "{\"model\":\"" + "x".repeat(ReplayProxy.MAX_REQUEST_BYTES) + "\"}";
            HttpResponse<String> big = post(proxy, huge);
            assertEquals(413, big.statusCode());
            assertEquals("request_too_large", Json.readTree(big.body()).at("/error/type").asString());
            HttpResponse<String> anthropic = post(proxy, "/v1/messages", huge);
            assertEquals("request_too_large", Json.readTree(anthropic.body()).at("/error/type").asString());

            HttpResponse<String> broken = post(proxy, "{\"model\": nope}");
            assertEquals(400, broken.statusCode());
            String message = Json.readTree(broken.body()).at("/error/message").asString();
            assertFalse(message.contains("[Source"), message);
            assertFalse(message.contains("StreamReadFeature"), message);
            assertTrue(message.endsWith("(line 1, column 11)"), message);
        }
    }

    @Test
    void aTimeoutFollowsTheClientsOwnTimeoutWhenItStatesOne() throws Exception {
        HarnessConfig config = project("  - {name: t, ops: [plan], faults: [timeout, timeout]}");
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("t").timeFactor(0).build().start()) {
            URI uri = URI.create("http://127.0.0.1:" + proxy.port() + "/v1/chat/completions");
            long t0 = System.nanoTime();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).header("X-Stainless-Timeout", "0.3")
                    .POST(HttpRequest.BodyPublishers.ofString(PLAN)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(504, r.statusCode());
            assertTrue(System.nanoTime() - t0 >= 300_000_000L, "held past the client's 0.3 s, time factor or not");
            long t1 = System.nanoTime();
            assertEquals(504, post(proxy, PLAN).statusCode());
            // Unscaled, the 10 s default would hold it 10 s; scaled by the time factor 0 it is answered at once. The
            // bound tells the two apart with room for a busy machine.
            assertTrue(System.nanoTime() - t1 < 5_000_000_000L, "without the header: 10 s times the time factor 0");
        }
        assertEquals(Duration.ofMillis(2200), ReplayProxy.clientTimeout("2"));
        assertEquals(Duration.ofMillis(700), ReplayProxy.clientTimeout(" 0.5 "));
        assertEquals(ReplayProxy.MAX_CLIENT_TIMEOUT, ReplayProxy.clientTimeout("86400"));
        assertEquals(null, ReplayProxy.clientTimeout("0"));
        assertEquals(null, ReplayProxy.clientTimeout("soon"));
        assertEquals(null, ReplayProxy.clientTimeout(null));
    }

    static final String RESPONSES_REQUEST = "{\"model\":\"m\",\"input\":\"write the patch\",\"tools\":[{\"type\":"
            + "\"function\",\"name\":\"edit\",\"parameters\":{\"type\":\"object\",\"required\":[\"path\"],"
            + "\"properties\":{\"path\":{\"type\":\"string\"}}}}]}";
    static final String RESPONSES_ANSWER = "{\"id\":\"resp_1\",\"object\":\"response\",\"created_at\":1,"
            + "\"status\":\"completed\",\"model\":\"m\",\"output\":[{\"type\":\"function_call\",\"id\":\"fc_1\","
            + "\"call_id\":\"call_1\",\"name\":\"edit\",\"arguments\":\"{\\\"path\\\": \\\"src/Main.java\\\"}\","
            + "\"status\":\"completed\"}]}";
    static final String MESSAGES_REQUEST = "{\"model\":\"claude-x\",\"max_tokens\":256,\"messages\":[{\"role\":"
            + "\"user\",\"content\":\"write the patch\"}],\"tools\":[{\"name\":\"edit\",\"input_schema\":{\"type\":"
            + "\"object\",\"required\":[\"path\"],\"properties\":{\"path\":{\"type\":\"string\"}}}}]}";
    static final String MESSAGES_ANSWER = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"model\":\"claude-x\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"edit\","
            + "\"input\":{\"path\":\"src/Main.java\"}}],\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":9,"
            + "\"output_tokens\":5}}";

    HarnessConfig shapes() throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: cassettes
                volatile: [response.id]
                policy: {max_total_wait: 30s}
                scenarios:
                  - {name: breaks, ops: [patch], faults: [{quota: {retry_after: "2"}}, {server_error: {status: 529}},
                     bad_tool_call, none]}
                """);
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        store.write(obj(RESPONSES_REQUEST), Json.readTree(RESPONSES_ANSWER), null);
        store.write(obj(MESSAGES_REQUEST), Json.readTree(MESSAGES_ANSWER), null);
        return config;
    }

    @Test
    void servesAnthropicMessagesWithFaultsInAnthropicsShape() throws Exception {
        HarnessConfig config = shapes();
        ToolCallSchema schemas = new ToolCallSchema();
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("breaks").timeFactor(0).build().start()) {
            HttpResponse<String> quota = post(proxy, "/v1/messages", MESSAGES_REQUEST);
            assertEquals(429, quota.statusCode());
            assertEquals("2", quota.headers().firstValue("retry-after").orElseThrow());
            assertEquals("2000", quota.headers().firstValue("retry-after-ms").orElseThrow());
            JsonNode error = Json.readTree(quota.body());
            assertEquals("error", error.get("type").asString());
            assertEquals("rate_limit_error", error.at("/error/type").asString());
            assertTrue(error.at("/error/message").isString());

            HttpResponse<String> overloaded = post(proxy, "/v1/messages", MESSAGES_REQUEST);
            assertEquals(529, overloaded.statusCode());
            assertEquals("overloaded_error", Json.readTree(overloaded.body()).at("/error/type").asString());

            JsonNode broken = Json.readTree(post(proxy, "/v1/messages", MESSAGES_REQUEST).body());
            assertTrue(broken.at("/content/0/input").isString(), "the tool_use input is cut-off JSON");
            assertEquals("content[0].input is not a JSON object (it is a string that does not parse as JSON)",
                    schemas.problem(obj(MESSAGES_REQUEST), broken));

            HttpResponse<String> ok = post(proxy, "/messages", MESSAGES_REQUEST);
            assertEquals(200, ok.statusCode());
            JsonNode message = Json.readTree(ok.body());
            assertTrue(message.get("id").asString().startsWith("msg_"), "the stripped id is put back");
            assertEquals("src/Main.java", message.at("/content/0/input/path").asString());
            assertEquals(null, schemas.problem(obj(MESSAGES_REQUEST), message));

            HttpResponse<String> miss = post(proxy, "/v1/messages", MESSAGES_REQUEST.replace("write", "read"));
            assertEquals(404, miss.statusCode());
            assertEquals("not_found_error", Json.readTree(miss.body()).at("/error/type").asString());
        }
    }

    static final String GEMINI_BODY = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"write the patch\"}]}],"
            + "\"tools\":[{\"functionDeclarations\":[{\"name\":\"edit\",\"parameters\":{\"type\":\"OBJECT\","
            + "\"required\":[\"path\"],\"properties\":{\"path\":{\"type\":\"STRING\"}}}}]}]}";
    static final String GEMINI_ANSWER = "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":"
            + "{\"name\":\"edit\",\"args\":{\"path\":\"src/Main.java\"}}}]},\"finishReason\":\"STOP\",\"index\":0}],"
            + "\"modelVersion\":\"gemini-2.5-flash\"}";

    @Test
    void servesGeminiAtItsModelsPathsWithFaultsInGooglesShape() throws Exception {
        HarnessConfig config = shapes();
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        ObjectNode keyed = dev.resilienceharness.http.ApiShape.request(
                "/v1beta/models/gemini-2.5-flash:generateContent", obj(GEMINI_BODY));
        store.write(keyed, Json.readTree(GEMINI_ANSWER), null);
        String path = "/v1beta/models/gemini-2.5-flash:generateContent";
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("breaks").timeFactor(0).build().start()) {
            HttpResponse<String> quota = post(proxy, path, GEMINI_BODY);
            assertEquals(429, quota.statusCode());
            assertEquals("2", quota.headers().firstValue("retry-after").orElseThrow());
            assertEquals("RESOURCE_EXHAUSTED", Json.readTree(quota.body()).at("/error/status").asString());
            assertEquals(429, Json.readTree(quota.body()).at("/error/code").asInt());

            HttpResponse<String> overloaded = post(proxy, path, GEMINI_BODY);
            assertEquals(529, overloaded.statusCode());
            assertEquals("UNAVAILABLE", Json.readTree(overloaded.body()).at("/error/status").asString());

            JsonNode broken = Json.readTree(post(proxy, path, GEMINI_BODY).body());
            assertTrue(broken.at("/candidates/0/content/parts/0/functionCall/args").isString());
            assertTrue(new ToolCallSchema().problem(keyed, broken).startsWith(
                    "candidates[0].content.parts[0].functionCall.args is not a JSON object"));

            HttpResponse<String> streamed = post(proxy, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
                    GEMINI_BODY);
            assertEquals(200, streamed.statusCode(), streamed.body());
            assertTrue(streamed.headers().firstValue("content-type").orElseThrow().startsWith("text/event-stream"));
            assertTrue(streamed.body().startsWith("data: {\"candidates\":"), streamed.body());
            assertTrue(streamed.body().contains("\"functionCall\":{\"name\":\"edit\""), streamed.body());

            HttpResponse<String> miss = post(proxy, "/v1beta/models/gemini-2.5-pro:generateContent", GEMINI_BODY);
            assertEquals(404, miss.statusCode());
            assertEquals("NOT_FOUND", Json.readTree(miss.body()).at("/error/status").asString());
        }
    }

    static final String BEDROCK_BODY = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"write the patch\"}]}],"
            + "\"toolConfig\":{\"tools\":[{\"toolSpec\":{\"name\":\"edit\",\"inputSchema\":{\"json\":{\"type\":\"object\","
            + "\"required\":[\"path\"],\"properties\":{\"path\":{\"type\":\"string\"}}}}}}]}}";
    static final String BEDROCK_ANSWER = "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"toolUse\":"
            + "{\"toolUseId\":\"tooluse_1\",\"name\":\"edit\",\"input\":{\"path\":\"src/Main.java\"}}}]}},"
            + "\"stopReason\":\"tool_use\",\"usage\":{\"inputTokens\":9,\"outputTokens\":5,\"totalTokens\":14}}";

    @Test
    void servesBedrockConverseAtItsModelPathWithFaultsAsBedrocksExceptions() throws Exception {
        HarnessConfig config = shapes();
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        String path = "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse";
        ObjectNode keyed = dev.resilienceharness.http.ApiShape.request(path, obj(BEDROCK_BODY));
        store.write(keyed, Json.readTree(BEDROCK_ANSWER), null);
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("breaks").timeFactor(0).build().start()) {
            HttpResponse<String> quota = post(proxy, path, BEDROCK_BODY);
            assertEquals(429, quota.statusCode());
            assertEquals("ThrottlingException", quota.headers().firstValue("x-amzn-ErrorType").orElseThrow());
            assertEquals("ThrottlingException", Json.readTree(quota.body()).path("__type").asString());

            HttpResponse<String> overloaded = post(proxy, path, BEDROCK_BODY);
            assertEquals(529, overloaded.statusCode());
            assertEquals("ServiceUnavailableException",
                    overloaded.headers().firstValue("x-amzn-ErrorType").orElseThrow());

            JsonNode broken = Json.readTree(post(proxy, path, BEDROCK_BODY).body());
            assertTrue(broken.at("/output/message/content/0/toolUse/input").isString());
            assertTrue(new ToolCallSchema().problem(keyed, broken).startsWith(
                    "output.message.content[0].toolUse.input is not a JSON object"));

            HttpResponse<String> miss = post(proxy, "/model/amazon.nova-lite-v1%3A0/converse", BEDROCK_BODY);
            assertEquals(404, miss.statusCode());
            assertEquals("ResourceNotFoundException", Json.readTree(miss.body()).path("__type").asString());
        }
    }

    @Test
    void servesBedrockConverseStreamAsEventStreamFramesWithABrokenToolCallsInputCutOff() throws Exception {
        HarnessConfig config = shapes();
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        String path = "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream";
        ObjectNode keyed = dev.resilienceharness.http.ApiShape.request(path, obj(BEDROCK_BODY));
        store.write(dev.resilienceharness.http.ApiShape.withoutStreaming(keyed), Json.readTree(BEDROCK_ANSWER), null);
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("breaks").timeFactor(0).build().start()) {
            URI uri = URI.create("http://127.0.0.1:" + proxy.port() + path);
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(BEDROCK_BODY))
                    .build();
            HttpResponse<byte[]> quota = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(429, quota.statusCode());
            assertEquals("ThrottlingException", quota.headers().firstValue("x-amzn-ErrorType").orElseThrow());
            assertEquals(529, http.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode());

            HttpResponse<byte[]> broken = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, broken.statusCode());
            assertEquals("application/vnd.amazon.eventstream", broken.headers().firstValue("content-type")
                    .orElseThrow());
            StringBuilder input = new StringBuilder();
            List<String> types = new java.util.ArrayList<>();
            for (var f : dev.resilienceharness.http.EventStreamFrames.readAll(broken.body())) {
                types.add(f.header(":event-type"));
                input.append(Json.readTree(f.text()).at("/delta/toolUse/input").asString(""));
            }
            assertEquals("contentBlockStart", types.get(1));
            assertEquals("metadata", types.get(types.size() - 1));
            assertTrue(input.toString().startsWith("{\"path\":") && !input.toString().endsWith("}"), input.toString());

            HttpResponse<byte[]> ok = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            StringBuilder whole = new StringBuilder();
            for (var f : dev.resilienceharness.http.EventStreamFrames.readAll(ok.body())) {
                whole.append(Json.readTree(f.text()).at("/delta/toolUse/input").asString(""));
            }
            assertEquals("{\"path\":\"src/Main.java\"}", whole.toString());
        }
    }

    @Test
    void servesABedrockStreamErrorAsAnExceptionFrameAndACutAsAShortBody() throws Exception {
        HarnessConfig config = project("  - {name: bedrock, ops: [patch], faults: [{stream_error: {after_events: 2,"
                + " error: throttlingException}}, {stream_cut: {after_events: 2}}]}");
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        String path = "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream";
        ObjectNode keyed = dev.resilienceharness.http.ApiShape.request(path, obj(BEDROCK_BODY));
        store.write(dev.resilienceharness.http.ApiShape.withoutStreaming(keyed), Json.readTree(BEDROCK_ANSWER), null,
                "patch");
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("bedrock").timeFactor(0).build().start()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path))
                    .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(BEDROCK_BODY)).build();
            HttpResponse<byte[]> error = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, error.statusCode());
            var frames = dev.resilienceharness.http.EventStreamFrames.readAll(error.body());
            assertEquals(3, frames.size());
            assertEquals("exception", frames.get(2).header(":message-type"));
            assertEquals("throttlingException", frames.get(2).header(":exception-type"));
            assertTrue(Json.readTree(frames.get(2).text()).path("message").asString().contains("stream_error"));

            assertThrows(IOException.class, () -> http.send(request, HttpResponse.BodyHandlers.ofByteArray()),
                    "the body is short of what it promised: the connection drops after two frames");
        }
    }

    @Test
    void servesAMessagesStreamOnBedrocksInvokeWithResponseStreamAsChunkFramesWithEachInStreamError()
            throws Exception {
        HarnessConfig config = project("  - {name: chunks, ops: [patch], faults: [{stream_error: {after_events: 2}},"
                + " {stream_error: {after_events: 2, error: overloaded_error}}, {stream_cut: {after_events: 2}}]}");
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        String path = "/model/anthropic.claude-x-v1%3A0/invoke-with-response-stream";
        String body = MESSAGES_REQUEST.replace("\"model\":\"claude-x\"",
                "\"anthropic_version\":\"bedrock-2023-05-31\"");
        ObjectNode keyed = dev.resilienceharness.http.ApiShape.request(path, obj(body));
        store.write(dev.resilienceharness.http.ApiShape.withoutStreaming(keyed), Json.readTree(MESSAGES_ANSWER), null,
                "patch");
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("chunks").timeFactor(0).build().start()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path))
                    .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            HttpResponse<byte[]> thrown = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, thrown.statusCode());
            assertEquals("application/vnd.amazon.eventstream", thrown.headers().firstValue("content-type")
                    .orElseThrow());
            assertEquals("application/json", thrown.headers().firstValue("x-amzn-bedrock-content-type").orElseThrow(),
                    "anthropic-java's Bedrock backend refuses a stream without it");
            var frames = dev.resilienceharness.http.EventStreamFrames.readAll(thrown.body());
            assertEquals(3, frames.size());
            assertEquals("chunk", frames.get(0).header(":event-type"));
            assertEquals("message_start", Json.readTree(chunk(frames.get(0))).path("type").asString());
            assertEquals("exception", frames.get(2).header(":message-type"));
            assertEquals("modelStreamErrorException", frames.get(2).header(":exception-type"),
                    "Bedrock's usual in-stream error");

            var overloaded = dev.resilienceharness.http.EventStreamFrames.readAll(
                    http.send(request, HttpResponse.BodyHandlers.ofByteArray()).body());
            assertEquals(3, overloaded.size());
            assertEquals("chunk", overloaded.get(2).header(":event-type"), "Anthropic's own error, inside a chunk");
            assertEquals("overloaded_error", Json.readTree(chunk(overloaded.get(2))).at("/error/type").asString());

            assertThrows(IOException.class, () -> http.send(request, HttpResponse.BodyHandlers.ofByteArray()),
                    "the body is short of what it promised: the connection drops after two frames");

            StringBuilder input = new StringBuilder();
            List<String> types = new java.util.ArrayList<>();
            for (var f : dev.resilienceharness.http.EventStreamFrames.readAll(
                    http.send(request, HttpResponse.BodyHandlers.ofByteArray()).body())) {
                JsonNode event = Json.readTree(chunk(f));
                types.add(event.path("type").asString());
                input.append(event.at("/delta/partial_json").asString(""));
            }
            assertEquals("message_start", types.get(0));
            assertEquals("message_stop", types.get(types.size() - 1));
            assertEquals("{\"path\":\"src/Main.java\"}", input.toString());
        }
    }

    /** The Messages event a Bedrock chunk frame carries: its payload's {@code bytes}, base64-decoded. */
    private static String chunk(dev.resilienceharness.http.EventStreamFrames.Frame frame) {
        return new String(java.util.Base64.getDecoder().decode(Json.readTree(frame.text()).path("bytes").asString()),
                StandardCharsets.UTF_8);
    }

    @Test
    void servesOpenAiResponsesWithFaultsInOpenAisShape() throws Exception {
        HarnessConfig config = shapes();
        ToolCallSchema schemas = new ToolCallSchema();
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("breaks").timeFactor(0).build().start()) {
            HttpResponse<String> quota = post(proxy, "/v1/responses", RESPONSES_REQUEST);
            assertEquals(429, quota.statusCode());
            assertEquals("rate_limit_exceeded", Json.readTree(quota.body()).at("/error/code").asString());
            assertEquals(529, post(proxy, "/v1/responses", RESPONSES_REQUEST).statusCode());

            JsonNode broken = Json.readTree(post(proxy, "/v1/responses", RESPONSES_REQUEST).body());
            assertEquals("output[0].arguments does not parse as JSON", schemas.problem(obj(RESPONSES_REQUEST), broken));

            JsonNode ok = Json.readTree(post(proxy, "/v1/responses", RESPONSES_REQUEST).body());
            assertTrue(ok.get("id").asString().startsWith("resp_"));
            assertEquals(null, schemas.problem(obj(RESPONSES_REQUEST), ok));

            HttpResponse<String> streaming = post(proxy, "/v1/responses", RESPONSES_REQUEST.replace("{\"model\"",
                    "{\"stream\":true,\"model\""));
            assertEquals(200, streaming.statusCode(), streaming.body());
            assertEquals("text/event-stream", streaming.headers().firstValue("content-type").orElseThrow());
            assertTrue(streaming.body().startsWith("event: response.created\ndata: {\"type\":\"response.created\""),
                    "the cassette streamed as the Responses API's named events: " + streaming.body());
            assertTrue(streaming.body().contains("event: response.function_call_arguments.delta\n"), streaming.body());
            assertTrue(streaming.body().endsWith("\n\n") && streaming.body().contains("event: response.completed\n"),
                    streaming.body());
        }
    }

    @Test
    void recordsResponsesAndMessagesThroughToTheProviderAtTheSamePath() throws Exception {
        HarnessConfig config = project(plainScenario());
        try (ProviderStub stub = ProviderStub.start()) {
            LiveTransport live = LiveTransport.connect(new dev.resilienceharness.config.Provider(stub.baseUrl(),
                    "PROVIDER_API_KEY"), Map.of("PROVIDER_API_KEY", ProviderStub.KEY)::get);
            try (ReplayProxy proxy = ReplayProxy.builder(config).mode(Mode.RECORD_MISSING).upstream(live).build()
                    .start()) {
                stub.then(ProviderStub.ok(RESPONSES_ANSWER));
                assertEquals(200, post(proxy, "/v1/responses", RESPONSES_REQUEST).statusCode());
                stub.then(ProviderStub.ok(MESSAGES_ANSWER));
                HttpResponse<String> m = post(proxy, "/v1/messages", MESSAGES_REQUEST);
                assertEquals(200, m.statusCode());
                assertEquals("toolu_1", Json.readTree(m.body()).at("/content/0/id").asString());
                stub.then(ProviderStub.quota("3"));
                HttpResponse<String> q = post(proxy, "/v1/messages", MESSAGES_REQUEST.replace("write", "plan"));
                assertEquals(429, q.statusCode());
                assertEquals("rate_limit_error", Json.readTree(q.body()).at("/error/type").asString(),
                        "the provider's refusal is relayed in the request's shape");
            }
            assertEquals(URI.create(stub.baseUrl() + "/responses").getPath(), stub.received().get(0).path());
            assertEquals("Bearer " + ProviderStub.KEY, stub.received().get(0).header("authorization"));
            ProviderStub.Received messages = stub.received().get(1);
            assertEquals(URI.create(stub.baseUrl() + "/messages").getPath(), messages.path());
            assertEquals(ProviderStub.KEY, messages.header("x-api-key"), "Anthropic's key header");
            assertEquals(LiveTransport.ANTHROPIC_VERSION, messages.header("anthropic-version"));
            assertEquals(null, messages.header("authorization"));
        }
        try (ReplayProxy offline = ReplayProxy.builder(config).timeFactor(0).build().start()) {
            assertEquals("edit", Json.readTree(post(offline, "/v1/responses", RESPONSES_REQUEST).body())
                    .at("/output/0/name").asString());
            assertEquals("edit", Json.readTree(post(offline, "/v1/messages", MESSAGES_REQUEST).body())
                    .at("/content/0/name").asString());
        }
    }

    @Test
    void theBuilderRefusesWhatCannotWork() throws Exception {
        HarnessConfig config = project(plainScenario());
        assertThrows(IllegalArgumentException.class, () -> ReplayProxy.builder(config).mode(Mode.RECORD).build());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> ReplayProxy.builder(config).scenario("nope"));
        assertTrue(unknown.getMessage().contains("there are [plain]"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ReplayProxy.builder(config).mode(Mode.RECORD)
                .upstream((op, r) -> null).scenario("plain").build());
        MissingApiKey missing = assertThrows(MissingApiKey.class, () -> ReplayProxy.forOptions(config,
                new ServeOptions(config.file(), Mode.RECORD, 0, null, 1), name -> null, x -> x));
        assertTrue(missing.getMessage().startsWith("set PROVIDER_API_KEY"));
    }
}
