package dev.resilienceharness.drift;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI-compatible provider on 127.0.0.1 whose answers a test changes between two passes: a tool call for a
 * request with {@code tools}, else a text answer, each passed through {@link #change} and sent after
 * {@link #delayMs}; queued statuses (a 429) come first.
 */
final class DriftStub implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "drift-stub");
        t.setDaemon(true);
        return t;
    });
    private final ConcurrentLinkedQueue<Integer> statuses = new ConcurrentLinkedQueue<>();
    final AtomicInteger requests = new AtomicInteger();
    volatile UnaryOperator<ObjectNode> change = UnaryOperator.identity();
    volatile long delayMs;

    DriftStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    /** The next request is answered with {@code status} instead. */
    void thenStatus(int status) {
        statuses.add(status);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** The first pass's answer to {@code request}. */
    static ObjectNode answer(ObjectNode request) {
        ObjectNode body = (ObjectNode) Json.readTree("""
                {"id": "chatcmpl-x", "object": "chat.completion", "created": 1767225600, "model": "m",
                 "choices": [{"index": 0, "finish_reason": "stop",
                   "message": {"role": "assistant", "content": "done"}}],
                 "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}}""");
        if (request.has("tools")) {
            ObjectNode choice = (ObjectNode) body.get("choices").get(0);
            choice.put("finish_reason", "tool_calls");
            ObjectNode message = (ObjectNode) choice.get("message");
            message.putNull("content");
            ObjectNode call = message.putArray("tool_calls").addObject();
            call.put("id", "call_1").put("type", "function");
            call.putObject("function").put("name", "lookup").put("arguments", "{\"order\": 7}");
        }
        return body;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            ObjectNode request = (ObjectNode) Json.readTree(ex.getRequestBody().readAllBytes());
            requests.incrementAndGet();
            Integer status = statuses.poll();
            byte[] bytes;
            if (status != null) {
                bytes = "{\"error\": {\"message\": \"scripted\"}}".getBytes(StandardCharsets.UTF_8);
            } else {
                status = 200;
                bytes = Json.compact(change.apply(answer(request))).getBytes(StandardCharsets.UTF_8);
                if (delayMs > 0) {
                    try {
                        Thread.sleep(delayMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
