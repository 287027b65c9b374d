package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.cassette.CassetteStore;
import dev.resilienceharness.cassette.Mode;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.http.ApiShape;
import dev.resilienceharness.http.FaultAnswer;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.json.VolatilePaths;
import dev.resilienceharness.live.ProviderCall;
import dev.resilienceharness.testing.ToolOrders;
import dev.resilienceharness.testing.ToolOrders.Shape;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code mvn resilience:serve}: a request whose tools came in another order is answered from its recording. */
class ReplayProxyToolOrderTest {

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private static String prompt(Shape shape, int n) {
        return "ask " + shape + " with " + n;
    }

    private HarnessConfig project(String requests) throws Exception {
        Files.writeString(dir.resolve("resilience.yaml"), """
                version: 1
                cassettes: cassettes
                volatile: [response.id, request.user]
                policy: {max_total_wait: 30s}
                %s
                scenarios:
                  - {name: plain, ops: [plan]}
                """.formatted(requests));
        HarnessConfig config = ConfigLoader.load(dir.resolve("resilience.yaml"));
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        for (Shape shape : Shape.values()) {
            for (int n = 1; n <= ToolOrders.MAX_TOOLS; n++) {
                store.write(shape.request(prompt(shape, n), shape.tools(n)), shape.answer(shape + " " + n), null);
            }
        }
        return config;
    }

    private HttpResponse<String> post(ReplayProxy proxy, String path, ObjectNode body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path))
                .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.compact(body))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private CompletableFuture<HttpResponse<String>> postAsync(ReplayProxy proxy, String path, ObjectNode body) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path))
                .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.compact(body))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long cassettes(HarnessConfig config) throws Exception {
        try (var files = Files.list(config.cassettes())) {
            return files.count();
        }
    }

    @Test
    void everyOrderOfTheToolsIsAnsweredFromTheRecordingInEachShape() throws Exception {
        HarnessConfig config = project("");
        List<String> expected = new ArrayList<>();
        List<String> answered = new ArrayList<>();
        try (ReplayProxy proxy = ReplayProxy.builder(config).timeFactor(0).build().start()) {
            for (Shape shape : Shape.values()) {
                for (int n = 1; n <= ToolOrders.MAX_TOOLS; n++) {
                    // A batch of requests at a time: each waits on the loopback far longer than it takes to answer.
                    List<List<ObjectNode>> orders = ToolOrders.permutations(shape.tools(n));
                    for (int from = 0; from < orders.size(); from += 24) {
                        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
                        for (List<ObjectNode> order : orders.subList(from, Math.min(orders.size(), from + 24))) {
                            expected.add("200 " + shape + " " + n + " " + order);
                            sent.add(postAsync(proxy, shape.path(), shape.request(prompt(shape, n), order)));
                        }
                        for (int i = 0; i < sent.size(); i++) {
                            HttpResponse<String> r = sent.get(i).get(10, TimeUnit.SECONDS);
                            String text = r.statusCode() == 200 ? shape.text(Json.readTree(r.body())) : r.body();
                            answered.add(r.statusCode() + " " + text + " " + orders.get(from + i));
                        }
                    }
                }
            }
            assertEquals(Shape.values().length * (1 + 2 + 6 + 24 + 120), proxy.requests());
        }
        assertEquals(expected, answered);
        assertEquals(Shape.values().length * ToolOrders.MAX_TOOLS, cassettes(config), "replay writes nothing");
    }

    @Test
    void aStreamingRequestInAnotherOrderStreamsTheAnswerRecordedWhole() throws Exception {
        HarnessConfig config = project("");
        Shape shape = Shape.CHAT_COMPLETIONS;
        List<ObjectNode> reversed = new ArrayList<>(shape.tools(3));
        java.util.Collections.reverse(reversed);
        try (ReplayProxy proxy = ReplayProxy.builder(config).timeFactor(0).build().start()) {
            HttpResponse<String> r = post(proxy, shape.path(), shape.request(prompt(shape, 3), reversed)
                    .put("stream", true));
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("text/event-stream", r.headers().firstValue("content-type").orElseThrow());
            dev.resilienceharness.http.ChunkAssembler assembler = new dev.resilienceharness.http.ChunkAssembler();
            for (String line : r.body().split("\n", -1)) {
                assembler.accept(line);
            }
            assembler.finish();
            assertTrue(assembler.done());
            assertEquals(shape + " 3", shape.text(assembler.completion()));
        }
    }

    @Test
    void aRequestThatAlsoDiffersInItsMessageIsStillAMissNamingTheNearestRecording() throws Exception {
        HarnessConfig config = project("");
        Shape shape = Shape.MESSAGES;
        List<ObjectNode> reversed = new ArrayList<>(shape.tools(4));
        java.util.Collections.reverse(reversed);
        ObjectNode changed = shape.request(prompt(shape, 4) + " again", reversed);
        CassetteStore store = CassetteStore.replaying(config.cassettes(), VolatilePaths.of(config.volatilePaths()));
        try (ReplayProxy proxy = ReplayProxy.builder(config).timeFactor(0).build().start()) {
            HttpResponse<String> r = post(proxy, shape.path(), changed);
            assertEquals(404, r.statusCode());
            JsonNode error = Json.readTree(r.body()).get("error");
            String message = error.get("message").asString();
            assertTrue(message.contains("looked for " + store.fingerprint(changed) + ".json"), message);
            String nearest = store.miss("proxy request", store.fingerprint(changed), changed).nearestFile();
            assertTrue(message.contains("the nearest recorded request is " + nearest + ", which differs at "), message);
            assertTrue(message.contains("messages[0].content"), message);
        }
        assertEquals(Shape.values().length * ToolOrders.MAX_TOOLS, cassettes(config));
    }

    @Test
    void aDeclaredRequestWhoseToolsCameInAnotherOrderIsLoggedAsItsOp() throws Exception {
        Shape shape = Shape.CHAT_COMPLETIONS;
        HarnessConfig config = project("requests:\n  plan: " + Json.compact(shape.request(prompt(shape, 3),
                shape.tools(3))));
        List<ObjectNode> reversed = new ArrayList<>(shape.tools(3));
        java.util.Collections.reverse(reversed);
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ReplayProxy proxy = ReplayProxy.builder(config).timeFactor(0).log(lines::add).build().start()) {
            assertEquals(200, post(proxy, shape.path(), shape.request(prompt(shape, 3), shape.tools(3))).statusCode());
            assertEquals(200, post(proxy, shape.path(), shape.request(prompt(shape, 3), reversed)).statusCode());
            assertEquals(200, post(proxy, shape.path(), shape.request(prompt(shape, 2), shape.tools(2))).statusCode());
        }
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("POST /v1/chat/completions op plan, fault none: 200 in "), lines.get(0));
        assertTrue(lines.get(1).startsWith("POST /v1/chat/completions op plan, fault none: 200 in "), lines.get(1));
        assertTrue(lines.get(2).matches("POST /v1/chat/completions fingerprint [0-9a-f]{16}, fault none: 200 in \\d+"
                + " ms"), lines.get(2));
    }

    @Test
    void recordMissingAnswersEveryOrderFromTheRecordingAndRecordsNothing() throws Exception {
        HarnessConfig config = project("");
        List<String> forwarded = new ArrayList<>();
        ProviderCall upstream = new ProviderCall() {
            @Override
            public CassetteStore.Recorded send(String op, ObjectNode request) {
                forwarded.add(request.toString());
                return new CassetteStore.Recorded(Shape.MESSAGES.answer("live"), null);
            }

            @Override
            public CassetteStore.Recorded send(String op, ObjectNode request, ApiShape shape) {
                return send(op, request);
            }
        };
        ProxyRecording recording = new ProxyRecording(new CassetteStore(config.cassettes(),
                VolatilePaths.of(config.volatilePaths()), Mode.RECORD_MISSING, c -> c), upstream);
        Shape shape = Shape.MESSAGES;
        for (List<ObjectNode> order : ToolOrders.permutations(shape.tools(5))) {
            assertEquals(shape + " 5", shape.text(recording.record(ApiShape.MESSAGES,
                    shape.request(prompt(shape, 5), order)).body()));
        }
        assertEquals(List.of(), forwarded);
        assertEquals(Shape.values().length * ToolOrders.MAX_TOOLS, cassettes(config), "no order was recorded again");
        // A request that differs in more than its tools' order is recorded, once.
        ObjectNode other = shape.request("something else", shape.tools(5));
        FaultAnswer live = recording.record(ApiShape.MESSAGES,
                other);
        assertEquals("live", shape.text(live.body()), live.body().toString());
        assertEquals(1, forwarded.size());
        assertEquals(Shape.values().length * ToolOrders.MAX_TOOLS + 1, cassettes(config));
        assertFalse(forwarded.get(0).isEmpty());
    }
}
