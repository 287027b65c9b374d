package dev.resilienceharness.proxy;

import com.sun.net.httpserver.HttpExchange;
import dev.resilienceharness.mcp.McpCassetteMiss;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.mcp.McpOutcome;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The proxy's MCP endpoints (docs serve.md): {@code /mcp/<server>} speaks Streamable HTTP for each server the
 * configuration declares, and hands every JSON-RPC message to the current run's MCP server, which answers from its
 * cassettes with the scenario's MCP faults, as in-process adapters are answered. Each {@link McpOutcome} goes out as
 * a real server's answer would: a reply as JSON or, with notifications before it, as server-sent events; a lost
 * session as 404; {@code rate_limited} as 429 with {@code Retry-After}; a server gone as the connection closed; no
 * reply as an event stream that stays open, unanswered, for the client timeout the run assumed, then ends.
 */
final class McpRoute {

    /** Where the MCP endpoints live: {@code /mcp/<server>}. */
    static final String PREFIX = "/mcp/";
    static final String SESSION = "Mcp-Session-Id";

    /** The MCP side of the proxy's current run. */
    interface Served {

        /**
         * The run's MCP server {@code server}.
         *
         * @throws IllegalArgumentException when the configuration declares no such server
         */
        McpEndpoint endpoint(String server);

        /** How far the run's virtual clock has moved since the run began. */
        Duration elapsed();

        /** Notes a request no cassette answered: the run fails on it. */
        void missed(String server, String message);

        /** The fault the last MCP message met, {@code -} before any. */
        String lastFault();
    }

    private final Supplier<Served> runs;
    private final ProxyThreads threads;
    private final double timeFactor;
    /**
     * The client timeout the run's MCP faults run out ({@code timeout}, {@code hang}, a long {@code slow}): the proxy
     * cannot know the client's own, so serve is told it (the MCP Java SDK's 20 s unless set), and holds an
     * unanswered request that long, times the time factor.
     */
    private final Duration clientTimeout;
    private final Consumer<String> log;
    /** The sessions issued, by id, with the server each belongs to. */
    private final Map<String, String> sessions = new ConcurrentHashMap<>();

    McpRoute(Supplier<Served> runs, ProxyThreads threads, double timeFactor, Duration clientTimeout,
            Consumer<String> log) {
        this.runs = runs;
        this.threads = threads;
        this.timeFactor = timeFactor;
        this.clientTimeout = clientTimeout;
        this.log = log;
    }

    /** Whether {@code path} is one of the MCP endpoints'. */
    static boolean routes(String path) {
        return path.startsWith(PREFIX);
    }

    /** Answers one HTTP exchange on {@code /mcp/<server>}; the body has been read. */
    void answer(HttpExchange ex, byte[] body) throws IOException {
        long arrived = System.nanoTime();
        String path = ex.getRequestURI().getPath();
        String server = path.substring(PREFIX.length());
        String method = ex.getRequestMethod();
        Served run = runs.get();
        McpEndpoint endpoint;
        try {
            endpoint = run.endpoint(server);
        } catch (IllegalArgumentException e) {
            json(ex, 404, Map.of(), error(null, -32600, e.getMessage()));
            logged(method, path, "-", "404", arrived);
            return;
        }
        String session = ex.getRequestHeaders().getFirst(SESSION);
        if ("DELETE".equals(method)) {
            boolean ended = session != null && sessions.remove(session, server);
            empty(ex, ended ? 200 : 404);
            logged(method, path, "session end", ended ? "200" : "404", arrived);
            return;
        }
        if (!"POST".equals(method)) {
            // No stream of the server's own: a client then listens on its POSTs' answers only.
            ex.getResponseHeaders().set("Allow", "POST, DELETE");
            empty(ex, 405);
            logged(method, path, "-", "405", arrived);
            return;
        }
        JsonNode message;
        try {
            message = tools.jackson.databind.json.JsonMapper.shared().readTree(body);
        } catch (JacksonException e) {
            json(ex, 400, Map.of(), error(null, -32700, ProxyMessages.notJson(e)));
            logged(method, path, "-", "400", arrived);
            return;
        }
        String rpc = message.path("method").asString(null);
        JsonNode id = message.get("id");
        String label = "mcp " + server + " " + (rpc == null ? "answer" : rpc)
                + ("tools/call".equals(rpc) ? " " + message.path("params").path("name").asString("") : "");
        boolean initialize = "initialize".equals(rpc);
        if (!initialize) {
            if (session == null) {
                json(ex, 400, Map.of(), error(id, -32600, ProxyMessages.MCP_NO_SESSION));
                logged(method, path, label, "400", arrived);
                return;
            }
            if (!server.equals(sessions.get(session))) {
                json(ex, 404, Map.of(), error(id, -32001, ProxyMessages.MCP_UNKNOWN_SESSION));
                logged(method, path, label, "404", arrived);
                return;
            }
        }
        Duration before = run.elapsed();
        McpOutcome outcome;
        try {
            outcome = endpoint.send(new String(body, StandardCharsets.UTF_8), clientTimeout);
        } catch (McpCassetteMiss e) {
            run.missed(server, e.getMessage());
            json(ex, 500, Map.of(), error(id, -32603, e.getMessage()));
            logged(method, path, label, "500 (cassette miss)", arrived);
            return;
        } catch (IllegalArgumentException e) {
            json(ex, 400, Map.of(), error(id, -32600, e.getMessage()));
            logged(method, path, label, "400", arrived);
            return;
        }
        Duration took = scaled(run.elapsed().minus(before));
        Line line = new Line(method, path, label, run.lastFault(), arrived);
        if (outcome instanceof McpOutcome.Reply reply) {
            if (initialize) {
                session = UUID.randomUUID().toString();
                sessions.put(session, server);
                ex.getResponseHeaders().set(SESSION, session);
            }
            replied(ex, id, reply.messages(), took, line);
        } else if (outcome instanceof McpOutcome.NoReply none) {
            unanswered(ex, none, line);
        } else if (outcome instanceof McpOutcome.SessionNotFound) {
            if (session != null) {
                sessions.remove(session);
            }
            threads.later(took, () -> finish(ex, () -> json(ex, 404, Map.of(), error(id, -32001,
                    ProxyMessages.MCP_UNKNOWN_SESSION)), line, "404 (session expired)"));
        } else if (outcome instanceof McpOutcome.Throttled throttled) {
            String retryAfter = String.valueOf((long) Math.ceil(throttled.retryAfter().toMillis() * timeFactor
                    / 1000.0));
            threads.later(took, () -> finish(ex, () -> json(ex, 429, Map.of("Retry-After", retryAfter),
                    error(id, -32000, ProxyMessages.MCP_RATE_LIMITED)), line, "429"));
        } else {
            ex.getRequestBody().close();
            ex.close(); // closing before any header is sent drops the connection
            logged(line, "closed (server gone)");
        }
    }

    private void replied(HttpExchange ex, JsonNode id, List<String> messages, Duration took, Line line) {
        if (id == null || messages.isEmpty()) {
            threads.later(took, () -> finish(ex, () -> empty(ex, 202), line, "202"));
        } else if (messages.size() == 1) {
            threads.later(took, () -> finish(ex, () -> raw(ex, 200, messages.get(0)), line, "200"));
        } else {
            threads.later(took, () -> finish(ex, () -> events(ex, messages, true), line,
                    "200 (" + messages.size() + " events)"));
        }
    }

    /** No answer: an event stream carrying what the server sent before, left open for the client's timeout. */
    private void unanswered(HttpExchange ex, McpOutcome.NoReply none, Line line) throws IOException {
        events(ex, none.messages(), false);
        threads.later(scaled(none.waited()), () -> finish(ex, () -> ex.getResponseBody().close(), line,
                "200, no answer within " + (none.waited().toMillis() % 1000 == 0
                        ? none.waited().toSeconds() + " s" : none.waited().toMillis() + " ms")));
    }

    private static void events(HttpExchange ex, List<String> messages, boolean close) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        for (String m : messages) {
            out.write(("event: message\ndata: " + m + "\n\n").getBytes(StandardCharsets.UTF_8));
        }
        out.flush();
        if (close) {
            out.close();
        }
    }

    private Duration scaled(Duration virtual) {
        return Duration.ofNanos(Math.round(Math.max(0, virtual.toNanos()) * timeFactor));
    }

    private static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode e = JsonNodeFactory.instance.objectNode();
        e.put("jsonrpc", "2.0");
        if (id == null) {
            e.putNull("id");
        } else {
            e.set("id", id);
        }
        e.putObject("error").put("code", code).put("message", message);
        return e;
    }

    private static void json(HttpExchange ex, int status, Map<String, String> headers, ObjectNode body)
            throws IOException {
        headers.forEach(ex.getResponseHeaders()::set);
        raw(ex, status, dev.resilienceharness.json.Json.compact(body));
    }

    private static void raw(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void empty(HttpExchange ex, int status) throws IOException {
        ex.sendResponseHeaders(status, -1);
        ex.close();
    }

    /** The part of an answer that writes to the client. */
    @FunctionalInterface
    private interface Write {
        void run() throws IOException;
    }

    private void finish(HttpExchange ex, Write write, Line line, String status) {
        try (ex) {
            write.run();
            logged(line, status);
        } catch (IOException e) {
            logged(line, status + " (the client left before the answer was out)");
        }
    }

    private void logged(String method, String path, String label, String status, long arrived) {
        logged(new Line(method, path, label, "-", arrived), status);
    }

    private void logged(Line line, String status) {
        log.accept(ProxyMessages.requestLine(line.method, line.path, line.label, line.fault, status,
                (System.nanoTime() - line.arrived) / 1_000_000));
    }

    /** One request as its log line tells it. */
    private record Line(String method, String path, String label, String fault, long arrived) {
    }
}
