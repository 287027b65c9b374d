package dev.resilienceharness.mcpclient;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.json.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * A Streamable HTTP endpoint on 127.0.0.1 that speaks just enough MCP (initialize with a session id, tools/list,
 * tools/call) for the SDK's own {@code HttpClientStreamableHttpTransport}, and answers a queued {@code tools/call}
 * with an HTTP failure: a 429, a 404 for the session, or a connection closed without an answer. What the SDK's own
 * transport makes of these is what {@link RunMcpTransport} must make of the same outcomes.
 */
final class StatusServer implements AutoCloseable {

    enum Failure { THROTTLED, SESSION_NOT_FOUND, RESET }

    private final HttpServer server;
    private final Queue<Failure> failures = new ConcurrentLinkedQueue<>();
    private final AtomicInteger sessions = new AtomicInteger();

    StatusServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/mcp", this::handle);
        server.start();
    }

    String baseUri() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The next tools/call meets {@code failure}. */
    void next(Failure failure) {
        failures.add(failure);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            JsonNode message = Json.readTree(exchange.getRequestBody().readAllBytes());
            if (!message.has("id")) {
                exchange.sendResponseHeaders(202, -1);
                return;
            }
            String method = message.get("method").asString();
            if (method.equals("initialize")) {
                exchange.getResponseHeaders().add("Mcp-Session-Id", "s-" + sessions.incrementAndGet());
                answer(exchange, ScriptedEndpoint.response(message.get("id"), ScriptedEndpoint.INITIALIZE));
                return;
            }
            Failure failure = method.equals("tools/call") ? failures.poll() : null;
            if (failure == Failure.THROTTLED) {
                exchange.getResponseHeaders().add("Retry-After", "2");
                exchange.sendResponseHeaders(429, -1);
            } else if (failure == Failure.SESSION_NOT_FOUND) {
                exchange.sendResponseHeaders(404, -1);
            } else if (failure == Failure.RESET) {
                // The connection closes before any answer, as when the server process dies mid-request.
                throw new IOException("the server went away");
            } else {
                answer(exchange, ScriptedEndpoint.response(message.get("id"), method.equals("tools/list")
                        ? ScriptedEndpoint.TOOLS : "{\"content\":[],\"isError\":false}"));
            }
        }
    }

    private static void answer(HttpExchange exchange, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
