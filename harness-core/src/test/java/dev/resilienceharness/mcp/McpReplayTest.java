package dev.resilienceharness.mcp;

import static dev.resilienceharness.mcp.McpSessions.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McpReplayTest {

    private final McpReplay replay = new McpReplay("billing", List.of(McpSessions.billing()));

    @Test
    void theAnswerCarriesTheRequestsIdNotTheRecordedOne() {
        McpReplay.Answer answer = replay.answer(json("{'jsonrpc': '2.0', 'id': 'abc-41', 'method': 'tools/list'}"));

        assertEquals(json("{'jsonrpc': '2.0', 'id': 'abc-41', 'result': {'tools': [{'name': 'refund',"
                + " 'inputSchema': {'type': 'object'}}]}}"), answer.response());
        assertEquals(5, answer.call().responseOffsetMs());
        assertFalse(answer.repeat());
    }

    @Test
    void matchingIgnoresTheMetaAndTheKeyOrder() {
        McpReplay.Answer answer = replay.answer(json("{'jsonrpc': '2.0', 'id': 3, 'method': 'tools/call', 'params':"
                + " {'_meta': {'progressToken': 'other'}, 'arguments': {'amount': 5, 'order': 'B-2'},"
                + " 'name': 'refund'}}"));

        assertEquals(3, answer.response().get("id").asInt());
        assertEquals(List.of(100L, 100L, 900L),
                answer.call().notifications().stream().map(McpNotification::offsetMs).toList());
        assertEquals(1500, answer.call().responseOffsetMs());
    }

    @Test
    void repeatedCallsAreAnsweredInRecordedOrderThenTheLastAgain() {
        var params = json("{'name': 'refund', 'arguments': {'order': 'A-1', 'amount': 30}}");

        assertEquals("r-1", text(replay.answer("tools/call", params)));
        assertEquals("r-2", text(replay.answer("tools/call", params)));
        McpReplay.Answer third = replay.answer("tools/call", params);
        assertEquals("r-2", text(third));
        assertTrue(third.repeat());
        assertEquals(Map.of(McpRequestKey.of("tools/call", params), 1), replay.repeats());
    }

    @Test
    void sessionsAreTakenInTheOrderGiven() {
        McpSession later = new McpSession("billing", McpTransportKind.STDIO,
                List.of(McpSessions.refund(30, "r-3", 1)));
        McpReplay two = new McpReplay("billing", List.of(McpSessions.billing(), later));
        var params = json("{'name': 'refund', 'arguments': {'order': 'A-1', 'amount': 30}}");

        assertEquals(List.of("r-1", "r-2", "r-3"), List.of(text(two.answer("tools/call", params)),
                text(two.answer("tools/call", params)), text(two.answer("tools/call", params))));
    }

    @Test
    void aRecordedErrorIsAnsweredAsAJsonRpcError() {
        McpReplay.Answer answer = replay.answer(json("{'jsonrpc': '2.0', 'id': 9, 'method': 'tools/call',"
                + " 'params': {'name': 'refund', 'arguments': {'order': 'Z'}}}"));

        assertEquals(json("{'jsonrpc': '2.0', 'id': 9, 'error': {'code': -32602, 'message': 'unknown order',"
                + " 'data': {'order': 'Z'}}}"), answer.response());
    }

    @Test
    void aMissNamesTheServerMethodFingerprintAndNearestRecording(@TempDir Path cassettes) throws Exception {
        Path file = McpCassetteFiles.sessionFile(cassettes, "billing", "s1");
        McpCassetteWriter.write(file, McpSessions.billing());
        McpReplay fromFile = new McpReplay("billing", List.of(new McpCassetteReader(cassettes).read(file)));
        var params = json("{'name': 'refund', 'arguments': {'order': 'A-1', 'amount': 31}}");

        McpCassetteMiss miss = assertThrows(McpCassetteMiss.class, () -> fromFile.answer("tools/call", params));

        McpRequestKey key = McpRequestKey.of("tools/call", params);
        assertEquals(key, miss.key());
        assertEquals("billing", miss.server());
        assertEquals("MCP server 'billing' has no recorded answer for tools/call of tool 'refund' with params"
                + " fingerprint " + key.fingerprint() + "; the nearest recorded tools/call is " + file
                + " exchanges[5] (params fingerprint " + McpRequestKey.of("tools/call", json("{'name': 'refund',"
                + " 'arguments': {'order': 'A-1', 'amount': 30}}")).fingerprint() + "), which differs at"
                + " arguments.amount. Run mvn resilience:record to record the server's answer", miss.getMessage());
    }

    @Test
    void aMissOfAMethodNeverRecordedSaysSo() {
        McpCassetteMiss miss = assertThrows(McpCassetteMiss.class,
                () -> replay.answer("resources/read", json("{'uri': 'file:///a'}")));

        assertEquals("MCP server 'billing' has no recorded answer for resources/read with params fingerprint "
                + McpRequestKey.of("resources/read", json("{'uri': 'file:///a'}")).fingerprint()
                + "; no resources/read was recorded for this server. Run mvn resilience:record to record the"
                + " server's answer", miss.getMessage());
    }

    @Test
    void aMissDoesNotCountAsAnAsking() {
        var params = json("{'name': 'refund', 'arguments': {'order': 'A-1', 'amount': 30}}");
        assertThrows(McpCassetteMiss.class, () -> replay.answer("tools/call", json("{'name': 'other'}")));

        assertEquals("r-1", text(replay.answer("tools/call", params)));
    }

    @Test
    void aSessionOfAnotherServerIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new McpReplay("search", List.of(McpSessions.billing())));
        assertEquals("a session of server 'billing' cannot answer for server 'search'", e.getMessage());
    }

    @Test
    void aMessageWithoutAnIdIsNotARequest() {
        assertThrows(IllegalArgumentException.class,
                () -> replay.answer(json("{'jsonrpc': '2.0', 'method': 'notifications/initialized'}")));
    }

    private static String text(McpReplay.Answer answer) {
        return answer.call().result().get("content").get(0).get("text").asString();
    }

    @Test
    void aCallAddedDuringTheRunAnswersItsRequestFromThenOnAndIsRepeatedPastIt() {
        tools.jackson.databind.JsonNode params = json("{\"name\": \"refund\", \"arguments\": {\"order\": \"N-9\"}}");
        assertThrows(McpCassetteMiss.class, () -> replay.answer("tools/call", params));
        McpExchange.Call live = McpExchange.Call.answered("tools/call", params, 40, json("{\"content\": []}"));
        replay.add(live, "recorded in this run");
        McpReplay.Answer first = replay.answer("tools/call", params);
        assertEquals(live, first.call());
        assertFalse(first.repeat());
        assertTrue(replay.answer("tools/call", params).repeat(), "past the added call, it is given again");
    }
}
