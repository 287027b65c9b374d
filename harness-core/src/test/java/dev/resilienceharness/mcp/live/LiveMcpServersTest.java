package dev.resilienceharness.mcp.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.mcp.McpCassetteFiles;
import dev.resilienceharness.mcp.McpCassetteReader;
import dev.resilienceharness.mcp.McpCassetteWriter;
import dev.resilienceharness.mcp.McpExchange;
import dev.resilienceharness.mcp.McpServer;
import dev.resilienceharness.mcp.McpSession;
import dev.resilienceharness.mcp.McpTransportKind;
import dev.resilienceharness.secrets.Redactor;
import dev.resilienceharness.secrets.RedactionFailedException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class LiveMcpServersTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final JsonNode INITIALIZE = json("{'protocolVersion': '2025-06-18', 'capabilities': {},"
            + " 'clientInfo': {'name': 'agent', 'version': '1'}}");
    private static final JsonNode LOOKUP = json("{'name': 'find_refund', 'arguments': {'order_id': 'ord-1'}}");

    @TempDir
    Path dir;

    private final List<String> log = new CopyOnWriteArrayList<>();

    private static JsonNode json(String text) {
        return Json.readTree(text.replace('\'', '"'));
    }

    private static final UnaryOperator<ObjectNode> REDACT = c -> {
        try {
            return new Redactor().redact(c);
        } catch (RedactionFailedException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    };

    private LiveMcpServers live(McpServer server, String name) {
        return new LiveMcpServers(dir.resolve("cassettes"), dir, List.of(server), name, REDACT, log::add);
    }

    private McpSession session(String name) throws Exception {
        return new McpCassetteReader(dir.resolve("cassettes")).read(
                McpCassetteFiles.sessionFile(dir.resolve("cassettes"), "billing", name));
    }

    private static List<String> methods(McpSession session) {
        return session.exchanges().stream().map(McpExchange::method).toList();
    }

    @Test
    void aSessionOpenedByALaterRequestStartsWithTheClientsInitialize() throws Exception {
        try (LiveMcpServers live = live(McpServer.stdio("billing", ScriptedStdioServer.command("echo")), "s")) {
            live.clientInitialize("billing", INITIALIZE);
            McpExchange.Call call = live.call("billing", "tools/call", LOOKUP, TIMEOUT);
            assertEquals("tools/call", call.result().get("method").asString());
        }
        McpSession session = session("s");
        assertEquals(List.of("initialize", "notifications/initialized", "tools/call"), methods(session));
        assertEquals(INITIALIZE, session.exchanges().get(0).params());
    }

    @Test
    void withoutBeingToldTheClientsInitializeIsTakenFromTheRecordedSessions() throws Exception {
        JsonNode recorded = json("{'protocolVersion': '2025-03-26', 'capabilities': {'roots': {}},"
                + " 'clientInfo': {'name': 'agent', 'version': '2'}}");
        McpCassetteWriter.write(McpCassetteFiles.sessionFile(dir.resolve("cassettes"), "billing", "first"),
                new McpSession("billing", McpTransportKind.STDIO, List.of(McpExchange.Call.answered("initialize",
                        recorded, 3, json("{'protocolVersion': '2025-03-26'}")))));
        try (LiveMcpServers live = live(McpServer.stdio("billing", ScriptedStdioServer.command("echo")), "second")) {
            live.call("billing", "tools/list", null, TIMEOUT);
        }
        assertEquals(recorded, session("second").exchanges().get(0).params());
    }

    @Test
    void withNoInitializeKnownTheFirstRequestFailsSayingWhatToDo() throws Exception {
        try (LiveMcpServers live = live(McpServer.stdio("billing", ScriptedStdioServer.command("echo")), "s")) {
            IOException e = assertThrows(IOException.class, () -> live.call("billing", "tools/list", null, TIMEOUT));
            assertEquals("MCP server 'billing' (stdio): the first request to record is 'tools/list', and no"
                    + " initialize of the client is known to open a live session with. Delete mcp/billing/ from the"
                    + " cassette folder and record again, so that the client's initialize is recorded too",
                    e.getMessage());
        }
    }

    @Test
    void sessionFilesAreNamedDeterministicallyAndNeverOverwriteAnother() throws Exception {
        for (int i = 0; i < 2; i++) {
            try (LiveMcpServers live = live(McpServer.stdio("billing", ScriptedStdioServer.command("echo")),
                    "refund flow/1")) {
                live.call("billing", "initialize", INITIALIZE, TIMEOUT);
                live.call("billing", "initialize", INITIALIZE, TIMEOUT);
                assertEquals(List.of(), live.written());
                live.close();
                Path folder = McpCassetteFiles.serverFolder(dir.resolve("cassettes"), "billing");
                List<Path> expected = i == 0
                        ? List.of(folder.resolve("refund-flow-1.json"), folder.resolve("refund-flow-1-2.json"))
                        : List.of(folder.resolve("refund-flow-1-3.json"), folder.resolve("refund-flow-1-4.json"));
                assertEquals(expected, live.written(), "a second initialize starts a second session");
            }
        }
    }

    @Test
    void aSecretInAnAnswerIsRedactedInWhatIsReturnedAndWritten() throws Exception {
        McpExchange.Call call;
        try (LiveMcpServers live = live(McpServer.stdio("billing", ScriptedStdioServer.command("echo")), "s")) {
            call = live.call("billing", "initialize", INITIALIZE, TIMEOUT);
        }
        assertTrue(call.result().get("key").asString().startsWith("[REDACTED:"), call.result().toString());
        String text = Files.readString(McpCassetteFiles.sessionFile(dir.resolve("cassettes"), "billing", "s"));
        assertFalse(text.contains("sk_" + "live_"), text);
        assertEquals(call, session("s").exchanges().get(0));
    }

    @Test
    void aRedactionThatRefusesWritesNothingAndSaysWhy() throws Exception {
        LiveMcpServers live = new LiveMcpServers(dir.resolve("cassettes"), dir,
                List.of(McpServer.stdio("billing", ScriptedStdioServer.command("echo"))), "s",
                c -> {
                    throw new IllegalStateException("refusing to write the cassette: a secret survived");
                }, log::add);
        IOException e = assertThrows(IOException.class, () -> live.call("billing", "initialize", INITIALIZE,
                TIMEOUT));
        assertEquals("MCP server 'billing' (stdio): refusing to write the cassette: a secret survived",
                e.getMessage());
        live.close();
        assertFalse(Files.exists(McpCassetteFiles.serverFolder(dir.resolve("cassettes"), "billing")));
    }

    @Test
    void aCommandThatDoesNotStartIsNamedWithWhatToDo() throws Exception {
        McpServer server = McpServer.stdio("billing", List.of("no-such-mcp-server-anywhere", "--stdio"));
        try (LiveMcpServers live = live(server, "s")) {
            IOException e = assertThrows(IOException.class, () -> live.call("billing", "initialize", INITIALIZE,
                    TIMEOUT));
            assertTrue(e.getMessage().startsWith("MCP server 'billing' (stdio): cannot start"
                    + " no-such-mcp-server-anywhere --stdio: "), e.getMessage());
            assertTrue(e.getMessage().endsWith(". Check mcp_servers.billing.command: its program must be on the"
                    + " PATH or a path to an executable file"), e.getMessage());
        }
    }

    @Test
    void aStdioServerThatAnswersGarbageIsNamedWithWhatToDo() throws Exception {
        try (LiveMcpServers live = live(McpServer.stdio("billing", ScriptedStdioServer.command("garbage")), "s")) {
            IOException e = assertThrows(IOException.class, () -> live.call("billing", "initialize", INITIALIZE,
                    TIMEOUT));
            assertEquals("MCP server 'billing' (stdio) answered 'initialize' with something that is not JSON-RPC:"
                    + " 'Server listening on stdio, have fun'. Check that its command starts an MCP server that"
                    + " writes only JSON-RPC messages, one a line, on its standard output (logs go to standard"
                    + " error)", e.getMessage());
        }
    }

    @Test
    void aStdioServerThatExitsIsNamedWithItsCodeAndLastErrorLine() throws Exception {
        try (LiveMcpServers live = live(McpServer.stdio("billing", ScriptedStdioServer.command("exit")), "s")) {
            IOException e = assertThrows(IOException.class, () -> live.call("billing", "initialize", INITIALIZE,
                    TIMEOUT));
            assertEquals("MCP server 'billing' (stdio) exited (exit code 3) before answering 'initialize'; the last"
                    + " line of its standard error: cannot open billing.db. Run mcp_servers.billing.command by hand"
                    + " to see why it stops", e.getMessage());
        }
        assertTrue(log.contains("MCP server 'billing': cannot open billing.db"), log.toString());
    }

    @Test
    void aUrlThatRefusesIsNamedWithWhatToDo() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/mcp";
        try (LiveMcpServers live = live(McpServer.http("billing", url), "s")) {
            IOException e = assertThrows(IOException.class, () -> live.call("billing", "initialize", INITIALIZE,
                    TIMEOUT));
            assertEquals("MCP server 'billing' (streamable-http): " + url + " cannot be reached (connection"
                    + " refused). Start the server, or fix mcp_servers.billing.url", e.getMessage());
        }
    }

    @Test
    void anHttpServerThatAnswersGarbageOrAnErrorStatusIsNamed() throws Exception {
        HttpServer http = HttpServer.create(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/page", exchange -> {
            byte[] body = "<html>welcome</html>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.createContext("/broken", exchange -> {
            byte[] body = "upstream down".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(502, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.start();
        try {
            String base = "http://127.0.0.1:" + http.getAddress().getPort();
            try (LiveMcpServers live = live(McpServer.http("billing", base + "/page"), "s")) {
                IOException e = assertThrows(IOException.class, () -> live.call("billing", "initialize",
                        INITIALIZE, TIMEOUT));
                assertEquals("MCP server 'billing' (streamable-http) answered 'initialize' with something that is"
                        + " not JSON-RPC: '<html>welcome</html>'. Check that mcp_servers.billing.url is the server's"
                        + " MCP endpoint", e.getMessage());
            }
            try (LiveMcpServers live = live(McpServer.http("billing", base + "/broken"), "s")) {
                IOException e = assertThrows(IOException.class, () -> live.call("billing", "initialize",
                        INITIALIZE, TIMEOUT));
                assertEquals("MCP server 'billing' (streamable-http) answered 'initialize' with HTTP 502: upstream"
                        + " down. Check mcp_servers.billing.url and the server's log", e.getMessage());
            }
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aServerTheYamlDoesNotDeclareCannotBeRecorded() throws Exception {
        try (LiveMcpServers live = live(McpServer.stdio("billing", ScriptedStdioServer.command("echo")), "s")) {
            IOException e = assertThrows(IOException.class, () -> live.call("files", "tools/list", null, TIMEOUT));
            assertEquals("MCP server 'files' is not in the yaml's mcp_servers:, so it cannot be recorded. Declare it"
                    + " with its transport and its url or command", e.getMessage());
        }
    }

    @Test
    void streamableHttpKeepsTheSessionReadsEventStreamsAnswersPingsAndDeletesTheSessionAtClose() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer http = HttpServer.create(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/mcp", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            JsonNode message = body.isEmpty() ? null : Json.readTree(body);
            String method = message == null ? "" : message.has("method") ? message.get("method").asString()
                    : "reply " + Json.compact(message);
            seen.add(exchange.getRequestMethod() + " " + method + " session="
                    + exchange.getRequestHeaders().getFirst("Mcp-Session-Id") + " version="
                    + exchange.getRequestHeaders().getFirst("MCP-Protocol-Version") + " accept="
                    + exchange.getRequestHeaders().getFirst("Accept"));
            byte[] out;
            if (method.equals("initialize")) {
                exchange.getResponseHeaders().add("Mcp-Session-Id", "s-42");
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                out = ("{\"jsonrpc\":\"2.0\",\"id\":" + message.get("id") + ",\"result\":{\"protocolVersion\":"
                        + "\"2025-06-18\"}}").getBytes(StandardCharsets.UTF_8);
            } else if (method.equals("tools/call")) {
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                out = ("event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                        + "\"params\":{\"progressToken\":\"t\",\"progress\":1}}\n\n: keep-alive\n\n"
                        + "data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}\n\n"
                        + "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + message.get("id")
                        + ",\"result\":{\"content\":[]}}\n\n").getBytes(StandardCharsets.UTF_8);
            } else {
                exchange.sendResponseHeaders(202, -1);
                exchange.close();
                return;
            }
            exchange.sendResponseHeaders(200, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        http.start();
        McpExchange.Call call;
        try (LiveMcpServers live = live(McpServer.http("billing", "http://127.0.0.1:" + http.getAddress().getPort()
                + "/mcp"), "s")) {
            live.clientInitialize("billing", INITIALIZE);
            call = live.call("billing", "tools/call", LOOKUP, TIMEOUT);
        } finally {
            http.stop(0);
        }
        String accept = " accept=application/json, text/event-stream";
        assertEquals(List.of("POST initialize session=null version=null" + accept,
                "POST notifications/initialized session=s-42 version=2025-06-18" + accept,
                "POST tools/call session=s-42 version=2025-06-18" + accept,
                "POST reply {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"result\":{}} session=s-42 version=2025-06-18"
                        + accept,
                "DELETE  session=s-42 version=2025-06-18 accept=null"), seen);
        assertEquals(1, call.notifications().size());
        assertEquals("notifications/progress", call.notifications().get(0).method());
        assertEquals(json("{'content': []}"), call.result());
        assertEquals(List.of("initialize", "notifications/initialized", "tools/call"), methods(session("s")));
    }
}
