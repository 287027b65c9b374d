package dev.resilienceharness.mcpclient.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.resilienceharness.config.ConfigLoader;
import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.proxy.ReplayProxy;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.McpRecord;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code serve}'s MCP endpoint ({@code /mcp/<server>}) driven by the MCP Java SDK's own Streamable HTTP client and by
 * plain HTTP: the billing server's recorded session replayed with the scenario's MCP faults, each as a real server's
 * HTTP, the requests logged and the runs' MCP messages in {@code report.json} when the proxy stops.
 */
class ServeMcpTest {

    private static final McpSchema.Implementation CLIENT = new McpSchema.Implementation("serve-test", "1.0");

    private static final String YAML = """
            version: 1
            cassettes: cassettes
            policy: {max_total_wait: 5m}
            mcp_servers:
              billing: {transport: streamable_http, url: "http://127.0.0.1:9/mcp"}
            tools:
              refund: {side_effects: true, server: billing}
            scenarios:
              - {name: calm, faults: []}
              - {name: refund-expired, faults: [], tool_faults: {refund: [session_expired]}}
              - {name: refund-limited, faults: [], tool_faults: {refund: [{rate_limited: 3s}]}}
              - {name: refund-timeout, faults: [], tool_faults: {refund: [timeout]}}
              - {name: refund-gone, faults: [], tool_faults: {refund: [server_exit]}}
            """;

    @TempDir
    Path dir;

    private HarnessConfig config;
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void project() throws Exception {
        Path yaml = dir.resolve("resilience.yaml");
        Files.writeString(yaml, YAML);
        config = ConfigLoader.load(yaml);
        Path sessions = dir.resolve("cassettes").resolve("mcp").resolve("billing");
        Files.createDirectories(sessions);
        Files.writeString(sessions.resolve("refund.json"), session(initializeParams()));
    }

    /** What this SDK's client sends as {@code initialize}'s params, as a real server received them. */
    private static String initializeParams() throws Exception {
        AtomicReference<String> body = new AtomicReference<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            String sent = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            body.compareAndSet(null, sent);
            ex.sendResponseHeaders(503, -1);
            ex.close();
        });
        server.start();
        try (McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport
                        .builder("http://127.0.0.1:" + server.getAddress().getPort()).endpoint("/mcp").build())
                .clientInfo(CLIENT).requestTimeout(Duration.ofSeconds(2)).build()) {
            assertThrows(RuntimeException.class, client::initialize);
        } finally {
            server.stop(0);
        }
        return Json.compact(Json.readTree(body.get().getBytes(StandardCharsets.UTF_8)).get("params"));
    }

    private static String session(String initializeParams) {
        return """
                {
                  "version": 1,
                  "server": "billing",
                  "transport": "streamable-http",
                  "exchanges": [
                    {"request": {"method": "initialize", "params": %s},
                     "response": {"offset_ms": 3, "result": {"capabilities": {"tools": {"listChanged": true}},
                       "protocolVersion": "2025-11-25", "serverInfo": {"name": "billing", "version": "3.2"}}}},
                    {"notification": {"method": "notifications/initialized"}, "from": "client", "offset_ms": 0},
                    {"request": {"method": "tools/list"},
                     "response": {"offset_ms": 2, "result": {"tools": [{"name": "refund",
                       "description": "Refunds an order", "inputSchema": {"type": "object",
                       "properties": {"order": {"type": "string"}}}}]}}},
                    {"request": {"method": "tools/call", "params": {"arguments": {"order": "A1"}, "name": "refund"}},
                     "response": {"offset_ms": 4, "result": {"content": [{"text": "refund r-A1 issued",
                       "type": "text"}], "isError": false}}}
                  ]
                }
                """.formatted(initializeParams);
    }

    private ReplayProxy proxy(String scenario) throws Exception {
        return ReplayProxy.builder(config).scenario(scenario).timeFactor(0.01).log(log::add)
                .reportTo(dir.resolve("report")).build().start();
    }

    private static McpSyncClient client(ReplayProxy proxy, Duration timeout) {
        return McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + proxy.port())
                .endpoint("/mcp/billing").build()).clientInfo(CLIENT).requestTimeout(timeout).build();
    }

    private static McpSchema.CallToolRequest refund() {
        return new McpSchema.CallToolRequest("refund", Map.of("order", "A1"));
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private static List<String> methods(ScenarioResult run) {
        return run.trace().mcp().stream().map(McpRecord::method).toList();
    }

    @Test
    void theSdksClientIsAnsweredFromTheCassettesAndTheRunIsReportedOnStop() throws Exception {
        ReplayProxy proxy = proxy("calm");
        try (McpSyncClient client = client(proxy, Duration.ofSeconds(5))) {
            client.initialize();
            assertEquals(List.of("refund"), client.listTools().tools().stream().map(McpSchema.Tool::name).toList());
            assertEquals("refund r-A1 issued", text(client.callTool(refund())));
        }
        List<ScenarioResult> runs = proxy.stop();
        assertEquals(1, runs.size());
        assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "tools/call"),
                methods(runs.get(0)).stream().filter(m -> !m.equals("notifications/cancelled")).toList());
        assertEquals(List.of(), runs.get(0).violations());
        assertTrue(log.stream().anyMatch(l -> l.startsWith("POST /mcp/billing mcp billing tools/call refund")),
                String.join("\n", log));
        JsonNode report = Json.readTree(Files.readAllBytes(dir.resolve("report").resolve("report.json")));
        List<JsonNode> tools = new ArrayList<>();
        report.findValues("tools").forEach(ts -> ts.forEach(tools::add));
        assertEquals(1, tools.size(), report.toString());
        assertEquals("refund", tools.get(0).get("name").asString());
        assertEquals("the loop over serve", tools.get(0).get("layer").asString());
        assertEquals("mcp:billing", tools.get(0).get("op").asString());
        assertTrue(tools.get(0).get("committed").asBoolean());
        assertEquals("billing", tools.get(0).get("server").asString());
        List<String> mcp = new ArrayList<>();
        report.findValues("mcp").forEach(ms -> ms.forEach(m -> mcp.add(m.get("method").asString())));
        assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "tools/call"), mcp);
    }

    @Test
    void anExpiredSessionIsA404AfterWhichTheSdkInitializesAgain() throws Exception {
        ReplayProxy proxy = proxy("refund-expired");
        try (McpSyncClient client = client(proxy, Duration.ofSeconds(5))) {
            client.initialize();
            assertThrows(RuntimeException.class, () -> client.callTool(refund()));
            assertEquals("refund r-A1 issued", text(client.callTool(refund())), "a new session answers");
        }
        ScenarioResult run = proxy.stop().get(0);
        assertEquals(2, methods(run).stream().filter("initialize"::equals).count());
        assertTrue(log.stream().anyMatch(l -> l.contains("404 (session expired)")), String.join("\n", log));
        assertTrue(run.violations().stream().anyMatch(v -> v.invariant().name().equals("SIDE_EFFECTS")),
                "the refund ran before the session was lost, and again after: " + run.violations());
    }

    @Test
    void noAnswerLeavesTheSdkToItsOwnTimeoutInRealTime() throws Exception {
        ReplayProxy proxy = proxy("refund-timeout");
        try (McpSyncClient client = client(proxy, Duration.ofSeconds(1))) {
            client.initialize();
            long start = System.nanoTime();
            RuntimeException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                    () -> assertThrows(RuntimeException.class, () -> client.callTool(refund())));
            assertTrue(String.valueOf(e.getMessage()).contains("1000ms"), e.toString());
            assertTrue(System.nanoTime() - start >= Duration.ofMillis(900).toNanos(),
                    "the client waited for its own timeout, in real time");
        }
        proxy.stop();
    }

    @Test
    void aServerExitClosesTheConnection() throws Exception {
        ReplayProxy proxy = proxy("refund-gone");
        try (McpSyncClient client = client(proxy, Duration.ofSeconds(5))) {
            client.initialize();
            assertThrows(RuntimeException.class, () -> client.callTool(refund()));
        }
        proxy.stop();
        assertTrue(log.stream().anyMatch(l -> l.contains("closed (server gone)")), String.join("\n", log));
    }

    // --- plain HTTP -----------------------------------------------------------------------------------------

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> post(ReplayProxy proxy, String session, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + "/mcp/billing"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String initialize(ReplayProxy proxy) throws Exception {
        String params = Json.compact(Json.readTree(Files.readAllBytes(dir.resolve("cassettes/mcp/billing/refund.json")))
                .get("exchanges").get(0).get("request").get("params"));
        HttpResponse<String> answer = post(proxy, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":" + params + "}");
        assertEquals(200, answer.statusCode(), answer.body());
        String session = answer.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals(202, post(proxy, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .statusCode());
        return session;
    }

    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"refund\",\"arguments\":{\"order\":\"A1\"}}}";

    @Test
    void aRateLimitIsA429WithRetryAfter() throws Exception {
        try (ReplayProxy proxy = ReplayProxy.builder(config).scenario("refund-limited").log(log::add).build()
                .start()) {
            String session = initialize(proxy);
            HttpResponse<String> limited = post(proxy, session, CALL);
            assertEquals(429, limited.statusCode());
            assertEquals("3", limited.headers().firstValue("Retry-After").orElseThrow());
            assertEquals(200, post(proxy, session, CALL).statusCode(), "the next call is answered");
        }
    }

    @Test
    void aSessionTheProxyNeverIssuedIsA404AndNoSessionAt400() throws Exception {
        try (ReplayProxy proxy = proxy("calm")) {
            initialize(proxy);
            assertEquals(404, post(proxy, "not-a-session", CALL).statusCode());
            assertEquals(400, post(proxy, null, CALL).statusCode());
        }
    }

    @Test
    void anExpiredSessionIsA404ForEveryRequestUntilANewInitialize() throws Exception {
        try (ReplayProxy proxy = proxy("refund-expired")) {
            String session = initialize(proxy);
            assertEquals(404, post(proxy, session, CALL).statusCode());
            assertEquals(404, post(proxy, session, CALL).statusCode());
            String renewed = initialize(proxy);
            assertEquals(200, post(proxy, renewed, CALL).statusCode());
        }
    }
}
