package dev.resilienceharness.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.testing.McpProject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The proxy's MCP endpoint over plain HTTP: sessions issued at {@code initialize}, each outcome of the run's MCP
 * server as a Streamable HTTP server's answer (JSON, server-sent events, 404, an open stream without an answer), a
 * miss failing the run, and the paths and methods it does not serve.
 */
class McpRouteTest {

    @TempDir
    Path dir;

    private HarnessConfig config;
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void project() throws Exception {
        config = McpProject.create(dir);
    }

    private ReplayProxy proxy(String scenario) throws Exception {
        return ReplayProxy.builder(config).scenario(scenario).timeFactor(0.001).log(log::add).build().start();
    }

    private ReplayProxy proxy(String scenario, Duration clientTimeout) throws Exception {
        return ReplayProxy.builder(config).scenario(scenario).timeFactor(0.001).mcpClientTimeout(clientTimeout)
                .log(log::add).build().start();
    }

    private HttpResponse<String> send(ReplayProxy proxy, String method, String path, String session, String body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path))
                .header("Accept", "application/json, text/event-stream")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header(McpRoute.SESSION, session);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(ReplayProxy proxy, String session, String body) throws Exception {
        return send(proxy, "POST", "/mcp/billing", session, body);
    }

    private String initialize(ReplayProxy proxy) throws Exception {
        HttpResponse<String> answer = post(proxy, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\"}}");
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals("application/json", answer.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("billing", Json.readTree(answer.body().getBytes()).at("/result/serverInfo/name").asString());
        HttpResponse<String> initialized = post(proxy, answer.headers().firstValue(McpRoute.SESSION).orElseThrow(),
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertEquals(202, initialized.statusCode());
        return answer.headers().firstValue(McpRoute.SESSION).orElseThrow();
    }

    private static String call(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    private static List<JsonNode> events(String body) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (line.startsWith("data: ")) {
                out.add(Json.readTree(line.substring(6).getBytes()));
            }
        }
        return out;
    }

    @Test
    void anAnswerWithNotificationsBeforeItIsAnEventStreamAndOneWithoutIsJson() throws Exception {
        try (ReplayProxy proxy = proxy("plain")) {
            String session = initialize(proxy);
            HttpResponse<String> refund = post(proxy, session, call(7, "refund", "{\"order\":7}"));
            assertEquals(200, refund.statusCode());
            assertEquals("text/event-stream", refund.headers().firstValue("Content-Type").orElseThrow());
            List<JsonNode> events = events(refund.body());
            assertEquals(List.of("notifications/message", ""), events.stream()
                    .map(e -> e.path("method").asString("")).toList());
            assertEquals(7, events.get(1).get("id").asInt(), "the client's own id");
            assertEquals("refunded 12.5", events.get(1).at("/result/content/0/text").asString());
            HttpResponse<String> lookup = post(proxy, session, call(8, "lookup", "{\"order\":7}"));
            assertEquals("application/json", lookup.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("order 7: paid", Json.readTree(lookup.body().getBytes()).at("/result/content/0/text")
                    .asString());
        }
        assertTrue(log.stream().anyMatch(l -> l.startsWith("POST /mcp/billing mcp billing tools/call refund, fault"
                + " none: 200 (2 events)")), String.join("\n", log));
    }

    @Test
    void eachToolFaultIsTheAnswerARealServerWouldGive() throws Exception {
        try (ReplayProxy proxy = proxy("each-tool-fault", Duration.ofSeconds(60))) {
            String session = initialize(proxy);
            JsonNode error = Json.readTree(post(proxy, session, call(2, "refund", "{\"order\":7}")).body().getBytes());
            assertTrue(error.at("/result/isError").asBoolean(), error.toString());
            JsonNode internal = Json.readTree(post(proxy, session, call(3, "refund", "{\"order\":7}")).body()
                    .getBytes());
            assertEquals(-32603, internal.at("/error/code").asInt());
            JsonNode invalid = Json.readTree(post(proxy, session, call(4, "refund", "{\"order\":7}")).body()
                    .getBytes());
            assertEquals(-32602, invalid.at("/error/code").asInt());
            HttpResponse<String> timeout = post(proxy, session, call(5, "refund", "{\"order\":7}"));
            assertEquals(200, timeout.statusCode());
            assertEquals("text/event-stream", timeout.headers().firstValue("Content-Type").orElseThrow());
            assertEquals(List.of(), events(timeout.body()), "the stream ends without the answer");
        }
        assertTrue(log.stream().anyMatch(l -> l.contains("fault timeout: 200, no answer within 60 s")),
                String.join("\n", log));
    }

    @Test
    void noAnswerIsHeldForTheClientTimeoutServeIsToldTheSdksByDefault() throws Exception {
        try (ReplayProxy proxy = proxy("each-tool-fault")) {
            String session = initialize(proxy);
            for (int id = 2; id <= 4; id++) {
                post(proxy, session, call(id, "refund", "{\"order\":7}"));
            }
            HttpResponse<String> timeout = post(proxy, session, call(5, "refund", "{\"order\":7}"));
            assertEquals("text/event-stream", timeout.headers().firstValue("Content-Type").orElseThrow());
            assertEquals(List.of(), events(timeout.body()), "the stream ends without the answer");
        }
        try (ReplayProxy proxy = proxy("each-tool-fault", Duration.ofMillis(1500))) {
            String session = initialize(proxy);
            for (int id = 2; id <= 5; id++) {
                post(proxy, session, call(id, "refund", "{\"order\":7}"));
            }
        }
        List<String> held = log.stream().filter(l -> l.contains("fault timeout: ")).toList();
        assertEquals(2, held.size(), String.join("\n", log));
        assertTrue(held.get(0).contains("fault timeout: 200, no answer within 20 s"), held.get(0));
        assertTrue(held.get(1).contains("fault timeout: 200, no answer within 1500 ms"), held.get(1));
        assertThrows(IllegalArgumentException.class, () -> ReplayProxy.builder(config).mcpClientTimeout(Duration.ZERO));
    }

    @Test
    void aSessionEndsWithDeleteAndIsThenUnknown() throws Exception {
        try (ReplayProxy proxy = proxy("plain")) {
            String session = initialize(proxy);
            assertEquals(200, send(proxy, "DELETE", "/mcp/billing", session, null).statusCode());
            HttpResponse<String> after = post(proxy, session, call(2, "lookup", "{\"order\":7}"));
            assertEquals(404, after.statusCode());
            assertEquals(ProxyMessages.MCP_UNKNOWN_SESSION,
                    Json.readTree(after.body().getBytes()).at("/error/message").asString());
            HttpResponse<String> none = post(proxy, null, call(3, "lookup", "{\"order\":7}"));
            assertEquals(400, none.statusCode());
            assertEquals(ProxyMessages.MCP_NO_SESSION,
                    Json.readTree(none.body().getBytes()).at("/error/message").asString());
        }
    }

    @Test
    void theProxyOpensNoStreamOfItsOwnAndServesOnlyDeclaredServers() throws Exception {
        try (ReplayProxy proxy = proxy("plain")) {
            HttpResponse<String> get = send(proxy, "GET", "/mcp/billing", null, null);
            assertEquals(405, get.statusCode());
            assertEquals("POST, DELETE", get.headers().firstValue("Allow").orElseThrow());
            HttpResponse<String> ledger = send(proxy, "POST", "/mcp/ledger", null, "{}");
            assertEquals(404, ledger.statusCode());
            assertEquals("this proxy serves no MCP server 'ledger'; it serves /mcp/billing, /mcp/files",
                    Json.readTree(ledger.body().getBytes()).at("/error/message").asString());
            assertEquals(400, send(proxy, "POST", "/mcp/billing", null, "{not json").statusCode());
        }
    }

    @Test
    void aRequestNothingAnswersIsA500AndFailsTheRun() throws Exception {
        ReplayProxy proxy = proxy("plain");
        String session = initialize(proxy);
        HttpResponse<String> miss = post(proxy, session, call(2, "refund", "{\"order\":8}"));
        assertEquals(500, miss.statusCode());
        assertTrue(Json.readTree(miss.body().getBytes()).at("/error/message").asString()
                .startsWith("MCP server 'billing' has no recorded answer for tools/call of tool 'refund'"), miss.body());
        ScenarioResult run = proxy.stop().get(0);
        assertTrue(run.violations().stream().anyMatch(v -> v.invariant() == Invariant.CASSETTES
                && v.op().equals("mcp:billing")), run.violations().toString());
    }
}
