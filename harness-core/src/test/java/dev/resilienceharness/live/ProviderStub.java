package dev.resilienceharness.live;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scripted OpenAI-compatible provider on 127.0.0.1: answers each request with the next scripted answer (200
 * bodies, 429 with or without Retry-After or retry-after-ms, 5xx, 408, 400, slow answers, SSE streams, dropped
 * connections), then with a default completion echoing the request. Remembers every request, headers included.
 */
public final class ProviderStub implements AutoCloseable {

    /** The key the tests set in the environment; nothing must ever write it to disk. */
    public static final String KEY = "sk-test-0123456789abcdefghijklmnop";

    /** An environment holding {@link #KEY} under {@code PROVIDER_API_KEY}. */
    public static final Map<String, String> ENV = Map.of("PROVIDER_API_KEY", KEY);

    /** One request as it arrived; header names in lower case. */
    public record Received(String method, String path, Map<String, List<String>> headers, String body) {
        public String header(String name) {
            List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
            return v == null || v.isEmpty() ? null : v.get(0);
        }

        public ObjectNode json() {
            return (ObjectNode) Json.readTree(body);
        }
    }

    /** What the stub does with one request. */
    public sealed interface Answer permits Reply, Events, Paced, Named, Raw, Drop, Binary {
    }

    /** A plain answer after {@code delayMs}. */
    public record Reply(int status, String body, Map<String, String> headers, long delayMs) implements Answer {
    }

    /** An SSE stream of {@code data:} payloads, the first after {@code firstDelayMs}; {@code [DONE]} is added. */
    public record Events(List<String> payloads, long firstDelayMs, boolean done) implements Answer {
    }

    /** An SSE stream of {@code data:} payloads, the first after {@code firstDelayMs}, then one every {@code gapMs}. */
    public record Paced(List<String> payloads, long firstDelayMs, long gapMs) implements Answer {
    }

    /** An SSE stream of events with their names, each sent at its offset since the request; nothing is added. */
    public record Named(List<dev.resilienceharness.cassette.StreamEvent> events) implements Answer {
    }

    /** An event stream written exactly as {@code text} says, comments and field lines included, nothing added. */
    public record Raw(String text) implements Answer {
    }

    /** The connection is closed without an answer. */
    public record Drop() implements Answer {
    }

    /** A 200 whose body is {@code bytes} as they are, of {@code contentType}: AWS event-stream frames, for example. */
    public record Binary(byte[] bytes, String contentType, Map<String, String> headers) implements Answer {
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final ConcurrentLinkedQueue<Answer> script = new ConcurrentLinkedQueue<>();
    private final List<Received> received = Collections.synchronizedList(new ArrayList<>());
    private volatile Function<Received, Answer> fallback = ProviderStub::echo;

    private ProviderStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "provider-stub");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public static ProviderStub start() throws IOException {
        return new ProviderStub();
    }

    /** {@code http://127.0.0.1:<port>/v1}. */
    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    /** Queues answers, one per coming request. */
    public ProviderStub then(Answer... answers) {
        script.addAll(List.of(answers));
        return this;
    }

    /** What to answer once the script is used up. */
    public ProviderStub otherwise(Function<Received, Answer> answer) {
        this.fallback = answer;
        return this;
    }

    public List<Received> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    // --- answers -------------------------------------------------------------------------------------------------

    public static Reply ok(String body) {
        return new Reply(200, body, Map.of(), 0);
    }

    public static Reply ok(JsonNode body) {
        return ok(Json.compact(body));
    }

    public static Reply status(int status) {
        return new Reply(status, "{\"error\":{\"message\":\"scripted " + status + "\"}}", Map.of(), 0);
    }

    public static Reply withHeaders(Reply r, Map<String, String> headers) {
        return new Reply(r.status(), r.body(), headers, r.delayMs());
    }

    public static Reply quota() {
        return status(429);
    }

    public static Reply quota(String retryAfter) {
        return withHeaders(status(429), Map.of("Retry-After", retryAfter));
    }

    public static Reply quota(String retryAfter, String retryAfterMs) {
        return withHeaders(status(429), Map.of("Retry-After", retryAfter, "retry-after-ms", retryAfterMs));
    }

    public static Reply slow(long delayMs, Reply r) {
        return new Reply(r.status(), r.body(), r.headers(), delayMs);
    }

    public static Events stream(long firstDelayMs, List<String> payloads) {
        return new Events(payloads, firstDelayMs, true);
    }

    /** Chat completion chunks streaming {@code pieces} as content, ending with a finish reason and {@code [DONE]}. */
    public static List<String> chunks(String... pieces) {
        List<String> out = new ArrayList<>();
        String head = "{\"id\":\"chatcmpl-live1\",\"object\":\"chat.completion.chunk\",\"created\":1767225600,"
                + "\"model\":\"stub-model\",\"system_fingerprint\":\"fp_live\",\"choices\":[{\"index\":0,\"delta\":";
        out.add(head + "{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}");
        for (String p : pieces) {
            out.add(head + "{\"content\":" + Json.compact(Json.readTree("\"" + p + "\"")) + "},\"finish_reason\":null}]}");
        }
        out.add(head + "{},\"finish_reason\":\"stop\"}]}");
        out.add("[DONE]");
        return out;
    }

    /** A chat completion answering with {@code content}. */
    public static ObjectNode completion(String content) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("id", "chatcmpl-stub");
        body.put("object", "chat.completion");
        body.put("created", 1_767_225_600L);
        body.put("model", "stub-model");
        ObjectNode choice = body.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", content);
        choice.put("finish_reason", "stop");
        body.putObject("usage").put("prompt_tokens", 3).put("completion_tokens", 2).put("total_tokens", 5);
        body.put("system_fingerprint", "fp_stub");
        return body;
    }

    /** A chat completion calling {@code tool} with {@code arguments} (which may be broken on purpose). */
    public static ObjectNode toolCall(String tool, String arguments) {
        ObjectNode body = completion(null);
        ObjectNode choice = (ObjectNode) body.get("choices").get(0);
        ObjectNode message = (ObjectNode) choice.get("message");
        message.putNull("content");
        ObjectNode call = message.putArray("tool_calls").addObject();
        call.put("id", "call_1");
        call.put("type", "function");
        call.putObject("function").put("name", tool).put("arguments", arguments);
        choice.put("finish_reason", "tool_calls");
        return body;
    }

    /** Answers with a completion naming the request's last message content, or its op. */
    public static Answer echo(Received r) {
        JsonNode req = r.json();
        JsonNode messages = req.path("messages");
        String said = messages.isArray() && !messages.isEmpty()
                ? messages.get(messages.size() - 1).path("content").asString("")
                : req.path("op").asString("");
        return ok(completion("answer to " + said));
    }

    // --- serving -------------------------------------------------------------------------------------------------

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            Map<String, List<String>> headers = new TreeMap<>();
            ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Received r = new Received(ex.getRequestMethod(), ex.getRequestURI().getPath(), headers, body);
            received.add(r);
            Answer next = script.poll();
            Answer a = next != null ? next : fallback.apply(r);
            if (a instanceof Drop) {
                return; // closing before any header drops the connection
            }
            if (a instanceof Reply reply) {
                pause(reply.delayMs());
                byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
                reply.headers().forEach(ex.getResponseHeaders()::set);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
                if (bytes.length > 0) {
                    try (OutputStream out = ex.getResponseBody()) {
                        out.write(bytes);
                    }
                }
                return;
            }
            if (a instanceof Paced paced) {
                ex.getResponseHeaders().set("Content-Type", "text/event-stream");
                ex.sendResponseHeaders(200, 0);
                try (OutputStream out = ex.getResponseBody()) {
                    pause(paced.firstDelayMs());
                    for (int i = 0; i < paced.payloads().size(); i++) {
                        if (i > 0) {
                            pause(paced.gapMs());
                        }
                        out.write(("data: " + paced.payloads().get(i) + "\n\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                }
                return;
            }
            if (a instanceof Named named) {
                long start = System.nanoTime();
                ex.getResponseHeaders().set("Content-Type", "text/event-stream");
                ex.sendResponseHeaders(200, 0);
                try (OutputStream out = ex.getResponseBody()) {
                    for (dev.resilienceharness.cassette.StreamEvent e : named.events()) {
                        pause(e.atMs() - (System.nanoTime() - start) / 1_000_000);
                        out.write(e.wire().getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                }
                return;
            }
            if (a instanceof Binary binary) {
                binary.headers().forEach(ex.getResponseHeaders()::set);
                ex.getResponseHeaders().set("Content-Type", binary.contentType());
                ex.sendResponseHeaders(200, binary.bytes().length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(binary.bytes());
                }
                return;
            }
            if (a instanceof Raw raw) {
                ex.getResponseHeaders().set("Content-Type", "text/event-stream");
                ex.sendResponseHeaders(200, 0);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(raw.text().getBytes(StandardCharsets.UTF_8));
                }
                return;
            }
            Events events = (Events) a;
            ex.getResponseHeaders().set("Content-Type", "text/event-stream");
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = ex.getResponseBody()) {
                pause(events.firstDelayMs());
                for (String p : events.payloads()) {
                    out.write(("data: " + p + "\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
                if (events.done()) {
                    out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
                }
            }
        }
    }

    private static void pause(long ms) {
        if (ms > 0) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
