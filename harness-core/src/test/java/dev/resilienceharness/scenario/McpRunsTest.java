package dev.resilienceharness.scenario;

import static dev.resilienceharness.testing.ScenarioRuns.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.json.Json;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.mcp.McpCassetteMiss;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.mcp.McpExchange;
import dev.resilienceharness.mcp.McpLive;
import dev.resilienceharness.mcp.McpOutcome;
import dev.resilienceharness.testing.McpProject;
import dev.resilienceharness.testing.TestProject;
import dev.resilienceharness.trace.McpRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.ToolRecord;
import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.ToolSchemas;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * MCP servers in a real rehearsal: JSON-RPC text sent through {@code LoopRun.mcp}, answered from MCP cassettes written
 * here, each fault as the client library would see it on the virtual clock, every message in the trace, and the
 * tool budget and side_effects judging MCP tools as local ones.
 */
class McpRunsTest {


    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(20);
    private static final String SDK = "MCP Java SDK";

    @TempDir
    Path dir;

    private HarnessConfig project() throws Exception {
        return McpProject.create(dir);
    }

    private static final AtomicInteger ids = new AtomicInteger();

    private static String request(String method, String params) {
        return "{\"jsonrpc\": \"2.0\", \"id\": " + ids.incrementAndGet() + ", \"method\": \"" + method + "\""
                + (params == null ? "" : ", \"params\": " + params) + "}";
    }

    private static String call(String tool, String arguments) {
        return request("tools/call", "{\"name\": \"" + tool + "\", \"arguments\": " + arguments + "}");
    }

    private static McpOutcome initialize(McpEndpoint billing) {
        McpOutcome o = billing.send(request("initialize", "{\"protocolVersion\": \"2025-06-18\"}"), CLIENT_TIMEOUT);
        billing.send("{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}", CLIENT_TIMEOUT);
        return o;
    }

    private static Outcome model(LoopRun run, String op) {
        try {
            return Outcome.ok(op, run.transport().call(run.request(op)).body(), 1);
        } catch (CallFailure e) {
            throw new AssertionError(e);
        }
    }

    /** The outcome as a line: its kind, and the response's result or error where it has one. */
    private static String shown(McpOutcome o) {
        if (o instanceof McpOutcome.Reply r) {
            JsonNode last = Json.readTree(r.messages().get(r.messages().size() - 1));
            return "reply " + r.messages().size() + " " + last.path("result").path("isError").asBoolean(false) + " "
                    + last.path("error").path("code").asLong(0);
        }
        if (o instanceof McpOutcome.NoReply n) {
            return "no reply after " + n.waited().toSeconds() + "s with " + n.messages().size();
        }
        if (o instanceof McpOutcome.ServerGone g) {
            return "gone: " + g.detail();
        }
        if (o instanceof McpOutcome.Throttled t) {
            return "throttled " + t.retryAfter().toSeconds() + "s";
        }
        return "session not found";
    }

    @Test
    void eachToolFaultReachesTheClientAsItsLibraryWouldSeeItOnTheVirtualClock() throws Exception {
        HarnessConfig config = project();
        List<McpOutcome> outcomes = new ArrayList<>();
        List<String> sent = new ArrayList<>();
        List<Long> clock = new ArrayList<>();
        AgentLoop loop = run -> {
            Outcome o = model(run, "resolve");
            McpEndpoint billing = run.mcp("billing", SDK);
            outcomes.add(initialize(billing));
            long start = run.now().toEpochMilli();
            for (int i = 0; i < 12; i++) {
                String progress = i == 5 || i == 6 ? "{\"progressToken\": \"p-" + i + "\"}" : null;
                sent.add(request("tools/call", "{\"name\": \"refund\", \"arguments\": {\"order\": 7}"
                        + (progress == null ? "" : ", \"_meta\": " + progress) + "}"));
                outcomes.add(billing.send(sent.get(sent.size() - 1), CLIENT_TIMEOUT));
                clock.add(run.now().toEpochMilli() - start);
            }
            return List.of(o);
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "each-tool-fault"), 1, Rehearsal.runInvariants(config));
        List<String> seen = outcomes.subList(0, 13).stream().map(McpRunsTest::shown).toList();
        assertEquals(List.of("reply 1 false 0", "reply 1 true 0", "reply 1 false -32603", "reply 1 false -32602",
                "no reply after 20s with 0", "no reply after 20s with 0", "reply 4 false 0",
                "no reply after 20s with 1", "throttled 2s", "reply 2 false 0", "reply 3 false 0", "no reply after 20s with 0", "reply 2 false 0"),
                seen);
        // error, the protocol errors and the 429 take no time; timeout and hang run out the client's 20 s; slow 5 s
        // answers after 5 s and the recorded 300 ms; slow 40 s is given up at 20 s; each recorded answer takes 300 ms.
        assertEquals(List.of(0L, 0L, 0L, 20_000L, 40_000L, 45_300L, 65_300L, 65_300L, 65_600L, 65_900L, 85_900L,
                86_200L), clock.subList(0, 12));

        McpOutcome.Reply slow = (McpOutcome.Reply) outcomes.get(6);
        assertEquals("notifications/progress", Json.readTree(slow.messages().get(0)).path("method").asString());
        assertEquals("p-5", Json.readTree(slow.messages().get(1)).path("params").path("progressToken").asString());
        assertEquals("notifications/message", Json.readTree(slow.messages().get(2)).path("method").asString());
        assertEquals(Json.readTree(sent.get(5)).get("id"), Json.readTree(slow.messages().get(3)).get("id"),
                "the response carries the request's id");
        McpOutcome.NoReply late = (McpOutcome.NoReply) outcomes.get(7);
        assertEquals("p-6", Json.readTree(late.messages().get(0)).path("params").path("progressToken").asString());

        JsonNode invalid = Json.readTree(((McpOutcome.Reply) outcomes.get(9)).messages().get(1)).path("result");
        JsonNode schema = Json.readTree("{\"type\": \"object\", \"required\": [\"refunded\"], \"properties\":"
                + " {\"refunded\": {\"type\": \"number\"}}}");
        assertNotNull(ToolSchemas.violation(schema, invalid.get("structuredContent")), invalid.toString());
        McpOutcome.Reply changed = (McpOutcome.Reply) outcomes.get(10);
        assertEquals("notifications/tools/list_changed", Json.readTree(changed.messages().get(0)).path("method")
                .asString());

        RunTrace trace = result.trace();
        List<ToolRecord> tools = trace.tools();
        assertEquals(12, tools.size());
        assertEquals(List.of("error", "protocol_error", "protocol_error", "timeout", "hang", "slow", "slow",
                "rate_limited", "invalid_result", "tools_changed", "timeout_after_commit", "none"),
                tools.stream().map(ToolRecord::fault).toList());
        assertEquals(List.of(false, false, false, false, false, true, false, false, true, true, true, true),
                tools.stream().map(ToolRecord::committed).toList());
        assertEquals(List.of(ToolRecord.Result.ERROR, ToolRecord.Result.ERROR, ToolRecord.Result.ERROR,
                ToolRecord.Result.TIMEOUT, ToolRecord.Result.TIMEOUT, ToolRecord.Result.OK, ToolRecord.Result.TIMEOUT,
                ToolRecord.Result.ERROR, ToolRecord.Result.INVALID_RESULT, ToolRecord.Result.OK,
                ToolRecord.Result.TIMEOUT, ToolRecord.Result.OK), tools.stream().map(ToolRecord::result).toList());
        assertTrue(tools.stream().allMatch(t -> "billing".equals(t.server()) && ("the loop over " + SDK).equals(t.layer())
                && "resolve".equals(t.op()) && t.round() == 1));
        assertEquals("{\"order\":7}", tools.get(0).arguments());

        List<McpRecord> mcp = trace.mcp();
        assertEquals(14, mcp.size());
        assertEquals(List.of("initialize", "notifications/initialized"), mcp.subList(0, 2).stream()
                .map(McpRecord::label).toList());
        assertEquals(McpRecord.Outcome.NOTICE, mcp.get(1).outcome());
        assertEquals("refund", mcp.get(2).label());
        assertEquals(List.of(McpRecord.Outcome.TOOL_ERROR, McpRecord.Outcome.PROTOCOL_ERROR,
                McpRecord.Outcome.PROTOCOL_ERROR, McpRecord.Outcome.NO_REPLY, McpRecord.Outcome.NO_REPLY,
                McpRecord.Outcome.RESULT, McpRecord.Outcome.NO_REPLY, McpRecord.Outcome.THROTTLED,
                McpRecord.Outcome.RESULT, McpRecord.Outcome.RESULT, McpRecord.Outcome.NO_REPLY,
                McpRecord.Outcome.RESULT), mcp.subList(2, 14).stream().map(McpRecord::outcome).toList());
        assertEquals(20_000_000_000L, mcp.get(5).endNanos() - mcp.get(5).atNanos());
        // Tool time is provider time: none of it is the loop's waiting.
        assertEquals(Duration.ZERO, trace.totalWait());
        // Twelve identical refunds are over the budget, and five of them took effect for one logical call.
        assertEquals(List.of(Invariant.BUDGET, Invariant.SIDE_EFFECTS), result.violations().stream().map(Violation::invariant)
                .distinct().toList());
    }

    @Test
    void sessionFaultsMeetEveryRequestInTurnWhateverItsMethod() throws Exception {
        HarnessConfig config = project();
        List<String> seen = new ArrayList<>();
        List<Long> clock = new ArrayList<>();
        List<McpOutcome> replies = new ArrayList<>();
        AgentLoop loop = run -> {
            Outcome o = model(run, "resolve");
            McpEndpoint billing = run.mcp("billing", SDK);
            long start = run.now().toEpochMilli();
            replies.add(billing.send(request("initialize", "{\"protocolVersion\": \"2025-06-18\"}"),
                    CLIENT_TIMEOUT));
            clock.add(run.now().toEpochMilli() - start);
            for (int i = 0; i < 5; i++) {
                replies.add(billing.send(request("tools/list", null), CLIENT_TIMEOUT));
                clock.add(run.now().toEpochMilli() - start);
            }
            replies.forEach(r -> seen.add(shown(r)));
            return List.of(o);
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "session-faults"), 1, Rehearsal.runInvariants(config));
        assertEquals(List.of("reply 1 false 0", "no reply after 20s with 0", "throttled 1s", "reply 1 false -32601",
                "reply 2 false 0", "reply 1 false 0"), seen.subList(0, 6));
        // slow 3 s and the recorded 20 ms; hang runs out the 20 s; the 429 and the error at once; 10 ms per list.
        assertEquals(List.of(3_020L, 23_020L, 23_020L, 23_020L, 23_030L, 23_040L), clock.subList(0, 6));
        assertEquals("notifications/tools/list_changed", Json.readTree(((McpOutcome.Reply) replies.get(4)).messages()
                .get(0)).path("method").asString());
        assertEquals(List.of("slow", "hang", "rate_limited", "protocol_error", "tools_changed", "none"),
                result.trace().mcp().stream().map(McpRecord::fault).toList());
        assertTrue(result.trace().mcp().stream().noneMatch(McpRecord::committed), "no tool ran");
        assertTrue(result.trace().tools().isEmpty());
        assertTrue(result.violations().isEmpty(), result.violations().toString());
    }

    /** Sends the refund, and once more after re-initializing when the session was lost: blind to what took effect. */
    private static AgentLoop blindAfterExpiry(String tool, String arguments, List<String> seen) {
        return blindAfterExpiry(tool, arguments, seen, false);
    }

    /** With {@code resend}, the client itself sends its first request again, its id and all, after initializing. */
    private static AgentLoop blindAfterExpiry(String tool, String arguments, List<String> seen, boolean resend) {
        return run -> {
            Outcome o = model(run, "resolve");
            McpEndpoint billing = run.mcp("billing", SDK);
            initialize(billing);
            String sent = call(tool, arguments);
            McpOutcome first = billing.send(sent, CLIENT_TIMEOUT);
            seen.add(shown(first));
            seen.add(shown(billing.send(call(tool, arguments), CLIENT_TIMEOUT)));
            initialize(billing);
            seen.add(shown(billing.send(resend ? sent : call(tool, arguments), CLIENT_TIMEOUT)));
            return List.of(o);
        };
    }

    @Test
    void aRefundRunAgainBlindlyAfterItsSessionExpiredFailsSideEffectsNamingTheServerAndTheClient() throws Exception {
        HarnessConfig config = project();
        List<String> seen = new ArrayList<>();
        ScenarioResult result = Rehearsal.prepare(config, () -> blindAfterExpiry("refund", "{\"order\": 7}", seen))
                .check(scenario(config, "expiry"), 1, Rehearsal.runInvariants(config));
        assertEquals(List.of("session not found", "session not found", "reply 2 false 0"), seen.subList(0, 3));
        List<ToolRecord> tools = result.trace().tools();
        assertEquals(List.of(true, false, true), tools.stream().map(ToolRecord::committed).toList());
        assertEquals(List.of("session_expired", "none", "none"), tools.stream().map(ToolRecord::fault).toList());
        List<Violation> v = result.violations();
        assertEquals(1, v.size(), v.toString());
        assertEquals(Invariant.SIDE_EFFECTS, v.get(0).invariant());
        assertEquals("2 executions that took effect", v.get(0).actual());
        assertTrue(v.get(0).message().startsWith("tool 'refund' of MCP server 'billing' took effect 2 times for one"
                + " logical call"), v.get(0).message());
        assertTrue(v.get(0).message().contains("execution 1 in round 1 (threw under session_expired)"),
                v.get(0).message());
        assertTrue(v.get(0).message().endsWith("repeated by the loop over MCP Java SDK, which retried the tool itself"
                + " without asking the model again"), v.get(0).message());
        assertTrue(v.get(0).hint().startsWith("Never run a side-effecting tool again blindly after its MCP session was"
                + " lost (session_expired)"), v.get(0).hint());
        assertTrue(v.get(0).hint().contains("Look with a read tool of MCP server 'billing'"), v.get(0).hint());
        assertTrue(v.get(0).hint().contains("(tools.refund.idempotency_key)"), v.get(0).hint());
    }

    @Test
    void aClientThatSendsItsOwnRequestAgainAfterAnExpiryIsNamedAsTheOneThatRepeatedIt() throws Exception {
        HarnessConfig config = project();
        List<String> seen = new ArrayList<>();
        ScenarioResult result = Rehearsal.prepare(config, () -> blindAfterExpiry("refund", "{\"order\": 7}", seen,
                true)).check(scenario(config, "expiry"), 1, Rehearsal.runInvariants(config));
        List<Violation> v = result.violations();
        assertEquals(1, v.size(), v.toString());
        assertTrue(v.get(0).message().endsWith("repeated by MCP Java SDK, which retried the tool itself without"
                + " asking the model again"), v.get(0).message());
        assertEquals(List.of("the loop over MCP Java SDK", "the loop over MCP Java SDK", "MCP Java SDK"),
                result.trace().tools().stream().map(ToolRecord::layer).toList());
    }

    @Test
    void theSameRetryOfAToolThatHonoursItsDeclaredKeyPasses() throws Exception {
        HarnessConfig config = project();
        List<String> seen = new ArrayList<>();
        ScenarioResult result = Rehearsal.prepare(config, () -> blindAfterExpiry("keyed_refund",
                "{\"order\": 7, \"refund_id\": \"r-7\"}", seen))
                .check(scenario(config, "expiry"), 1, Rehearsal.runInvariants(config));
        assertEquals(List.of("session not found", "session not found", "reply 1 false 0"), seen.subList(0, 3));
        assertTrue(result.violations().isEmpty(), result.violations().toString());
        assertEquals("r-7", result.trace().tools().get(2).idempotencyKey());
    }

    @Test
    void aServerThatExitsStaysGoneUntilANewSessionAndTheToolBudgetCountsMcpCalls() throws Exception {
        HarnessConfig config = project();
        List<String> seen = new ArrayList<>();
        AgentLoop loop = run -> {
            Outcome o = model(run, "resolve");
            McpEndpoint billing = run.mcp("billing", SDK);
            seen.add(shown(billing.send(request("initialize", "{\"protocolVersion\": \"2025-06-18\"}"),
                    CLIENT_TIMEOUT)));
            seen.add(shown(billing.send(request("tools/list", null), CLIENT_TIMEOUT)));
            seen.add(shown(billing.send(call("lookup", "{\"order\": 7}"), CLIENT_TIMEOUT)));
            initialize(billing);
            for (int i = 0; i < 3; i++) {
                seen.add(shown(billing.send(call("lookup", "{\"order\": 7}"), CLIENT_TIMEOUT)));
            }
            seen.add(shown(billing.send(request("prompts/get", "{\"name\": \"gone\"}"), CLIENT_TIMEOUT)));
            return List.of(o);
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "exit"), 1, Rehearsal.runInvariants(config));
        assertEquals(List.of("reply 1 false 0", "gone: MCP server 'billing' went away while answering tools/list"
                + " (injected server_exit)", "gone: MCP server 'billing' is gone since it exited; start a new session"
                + " with initialize", "reply 1 false 0", "reply 1 false 0", "reply 1 false 0", "reply 1 false -32602"),
                seen.subList(0, 7));
        List<McpRecord> mcp = result.trace().mcp();
        assertEquals(List.of("none", "server_exit", "none"), mcp.subList(0, 3).stream().map(McpRecord::fault)
                .toList());
        assertEquals(McpRecord.Outcome.SERVER_GONE, mcp.get(2).outcome());
        assertEquals(4, result.trace().tools().size());
        assertFalse(result.trace().tools().get(0).committed());
        List<Violation> v = result.violations();
        assertEquals(1, v.size(), v.toString());
        assertEquals(Invariant.BUDGET, v.get(0).invariant());
        assertEquals("tool 'lookup' ran 4 times with the same arguments (" + result.trace().tools().get(1)
                .fingerprint() + "), more than budget.max_identical_tool_calls (3): the agent is looping",
                v.get(0).message());
    }

    @Test
    void aRestartEndsTheSessionAndTheNextClientMustInitializeAgain() throws Exception {
        HarnessConfig config = project();
        List<String> seen = new ArrayList<>();
        AgentLoop loop = run -> {
            McpEndpoint billing = run.mcp("billing", SDK);
            List<Outcome> out = new ArrayList<>(run.journal().completed());
            if (out.isEmpty()) {
                initialize(billing);
                out.add(model(run, "resolve"));
                run.journal().record(out.get(0));
            } else {
                seen.add(shown(billing.send(call("lookup", "{\"order\": 7}"), CLIENT_TIMEOUT)));
                initialize(billing);
                seen.add(shown(billing.send(call("lookup", "{\"order\": 7}"), CLIENT_TIMEOUT)));
            }
            out.add(model(run, "notify"));
            return out;
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "crash"), 1, Rehearsal.runInvariants(config));
        assertEquals(List.of("session not found", "reply 1 false 0"), seen.subList(0, 2));
        assertEquals(List.of(1, 1), result.trace().tools().stream().map(ToolRecord::incarnation).toList());
        assertTrue(result.violations().isEmpty(), result.violations().toString());
    }

    @Test
    void aRequestNothingAnswersFailsTheRunEvenWhenTheClientSwallowsIt() throws Exception {
        HarnessConfig config = project();
        List<String> caught = new ArrayList<>();
        AgentLoop loop = run -> {
            Outcome o = model(run, "resolve");
            McpEndpoint billing = run.mcp("billing", SDK);
            try {
                billing.send(call("refund", "{\"order\": 8}"), CLIENT_TIMEOUT);
            } catch (McpCassetteMiss e) {
                caught.add(e.getMessage());
            }
            return List.of(o);
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "plain"), 1, Rehearsal.runInvariants(config));
        assertTrue(caught.get(0).startsWith("MCP server 'billing' has no recorded answer for tools/call of tool"
                + " 'refund'"), caught.get(0));
        assertEquals(RunTrace.Kind.CASSETTE, result.trace().failure().kind());
        assertEquals(caught.get(0), result.trace().failure().message());
        assertTrue(result.violations().stream().anyMatch(v -> v.invariant() == Invariant.CASSETTES),
                result.violations().toString());
    }

    @Test
    void aRecordingRunAsksTheLiveServerOnceForWhatNoCassetteAnswers() throws Exception {
        HarnessConfig config = project();
        List<String> asked = new ArrayList<>();
        McpLive live = new McpLive() {
            @Override
            public McpExchange.Call call(String server, String method, JsonNode params, Duration timeout) {
                asked.add(server + " " + method + " " + Json.compact(params) + " within " + timeout.toSeconds() + "s");
                return McpExchange.Call.answered(method, params, 700,
                        Json.readTree("{\"content\": [{\"type\": \"text\", \"text\": \"refunded 3\"}]}"));
            }

            @Override
            public void notice(String server, String method, JsonNode params) {
                asked.add(server + " notice " + method);
            }

            @Override
            public void close() {
            }
        };
        List<String> seen = new ArrayList<>();
        List<Long> clock = new ArrayList<>();
        AgentLoop loop = run -> {
            Outcome o = model(run, "resolve");
            McpEndpoint billing = run.mcp("billing", SDK);
            long start = run.now().toEpochMilli();
            for (int i = 0; i < 2; i++) {
                seen.add(shown(billing.send(call("refund", "{\"order\": 3}"), CLIENT_TIMEOUT)));
            }
            billing.send("{\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", \"params\": {}}",
                    CLIENT_TIMEOUT);
            clock.add(run.now().toEpochMilli() - start);
            return List.of(o);
        };
        Rehearsal rehearsal = Rehearsal.prepare(config, () -> loop);
        RunTrace trace = rehearsal.run(scenario(config, "plain"), null, null, live);
        assertNull(trace.failure());
        assertEquals(List.of("reply 1 false 0", "reply 1 false 0"), seen);
        assertEquals(List.of("billing tools/call {\"name\":\"refund\",\"arguments\":{\"order\":3}} within 20s",
                "billing notice notifications/cancelled"), asked);
        assertEquals(List.of(1_400L), clock);
        assertEquals(List.of(true, true), trace.tools().stream().map(ToolRecord::committed).toList());
    }

    @Test
    void aRecordingRunTellsTheLiveServersTheClientsOwnInitializeEvenWhenACassetteAnswersIt() throws Exception {
        HarnessConfig config = project();
        List<String> asked = new ArrayList<>();
        McpLive live = new McpLive() {
            @Override
            public McpExchange.Call call(String server, String method, JsonNode params, Duration timeout) {
                asked.add(server + " " + method);
                return McpExchange.Call.answered(method, params, 700,
                        Json.readTree("{\"content\": [{\"type\": \"text\", \"text\": \"refunded 9\"}]}"));
            }

            @Override
            public void clientInitialize(String server, JsonNode params) {
                asked.add(server + " client initialize " + Json.compact(params));
            }

            @Override
            public void notice(String server, String method, JsonNode params) {
                asked.add(server + " notice " + method);
            }

            @Override
            public void close() {
            }
        };
        List<String> seen = new ArrayList<>();
        AgentLoop loop = run -> {
            Outcome o = model(run, "resolve");
            McpEndpoint billing = run.mcp("billing", SDK);
            // The recorded initialize answers it (_meta is not matched), but its _meta is this client's own.
            seen.add(shown(billing.send(request("initialize", "{\"protocolVersion\": \"2025-06-18\","
                    + " \"_meta\": {\"client\": \"this run\"}}"), CLIENT_TIMEOUT)));
            seen.add(shown(billing.send(call("refund", "{\"order\": 9}"), CLIENT_TIMEOUT)));
            return List.of(o);
        };
        RunTrace trace = Rehearsal.prepare(config, () -> loop).run(scenario(config, "plain"), null, null, live);
        assertNull(trace.failure());
        assertEquals(List.of("reply 1 false 0", "reply 1 false 0"), seen);
        assertEquals(List.of("billing client initialize {\"protocolVersion\":\"2025-06-18\",\"_meta\":{\"client\":"
                + "\"this run\"}}", "billing tools/call"), asked);
    }

    @Test
    void aClientThatWaitedOnItsOwnMovesTheClockAsItsWaitingAndCountsTowardsMaxTotalWait() throws Exception {
        HarnessConfig config = project();
        List<String> refused = new ArrayList<>();
        AgentLoop loop = run -> {
            Outcome o = model(run, "resolve");
            McpEndpoint billing = run.mcp("billing", SDK);
            initialize(billing);
            String refund = call("refund", "{\"order\": 7}");
            billing.send(refund, CLIENT_TIMEOUT);
            billing.clientWaited(refund, Duration.ofSeconds(45));
            for (String never : List.of(call("refund", "{\"order\": 4}"), "not json")) {
                try {
                    billing.clientWaited(never, Duration.ofSeconds(1));
                } catch (IllegalArgumentException e) {
                    refused.add(e.getMessage());
                }
            }
            return List.of(o);
        };
        RunTrace trace = Rehearsal.prepare(config, () -> loop).run(scenario(config, "plain"), null);
        assertNull(trace.failure());
        assertEquals(Duration.ofSeconds(45), trace.totalWait());
        assertEquals(1, trace.waits().size());
        assertEquals(Duration.ofSeconds(45).toNanos(), trace.waits().get(0).nanos());
        assertEquals(SDK, trace.waits().get(0).by());
        assertEquals(2, refused.size(), refused.toString());
        assertTrue(refused.get(0).startsWith("no request tools/call "), refused.get(0));
        assertTrue(refused.get(1).contains("is not a JSON-RPC message"), refused.get(1));
    }

    @Test
    void aFailureTheClientTurnedIntoTextIsNotedOnTheCallAndTheToolExecution() throws Exception {
        HarnessConfig config = project();
        String text = "There was a timeout executing the tool";
        AgentLoop loop = run -> {
            Outcome o = model(run, "resolve");
            McpEndpoint billing = run.mcp("billing", "langchain4j-mcp");
            String sent = call("refund", "{\"order\": 7}");
            McpOutcome timedOut = billing.send(sent, CLIENT_TIMEOUT);
            assertInstanceOf(McpOutcome.NoReply.class, timedOut);
            billing.failureAnsweredAsText(sent, text);
            assertThrows(IllegalArgumentException.class, () -> billing.failureAnsweredAsText(call("refund", "{}"),
                    text));
            return List.of(o);
        };
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "each-tool-fault").withToolFaults(java.util.Map.of("refund",
                        List.of(dev.resilienceharness.tool.ToolFault.of(dev.resilienceharness.tool.ToolFault.Kind
                                .TIMEOUT)))), 1, Rehearsal.runInvariants(config));
        assertEquals(text, result.trace().tools().get(0).answeredAsText());
        assertEquals(text, result.trace().mcp().get(0).answeredAsText());
        assertEquals("langchain4j-mcp", result.trace().mcp().get(0).layer());
    }

    @Test
    void aSlowAnswerWhoseRecordedTimeTakesItPastTheClientsTimeoutIsNoReplyAfterTheWholeTimeout() throws Exception {
        HarnessConfig config = project();
        List<McpOutcome> seen = new ArrayList<>();
        List<Long> clock = new ArrayList<>();
        AgentLoop loop = run -> {
            Outcome o = model(run, "resolve");
            McpEndpoint billing = run.mcp("billing", SDK);
            long start = run.now().toEpochMilli();
            seen.add(billing.send(call("refund", "{\"order\": 7}"), CLIENT_TIMEOUT));
            clock.add(run.now().toEpochMilli() - start);
            return List.of(o);
        };
        // 19.9 s late, and the recording took 300 ms: the client gives up at 20 s, having had the one notification
        // the server sent within them (recorded 100 ms after the request; here at 19.9 s + 100 ms = 20 s, too late).
        ScenarioResult result = Rehearsal.prepare(config, () -> loop)
                .check(scenario(config, "plain").withToolFaults(java.util.Map.of("refund", List.of(
                        dev.resilienceharness.tool.ToolFault.slow(Duration.ofMillis(19_900))))), 1,
                        Rehearsal.runInvariants(config));
        McpOutcome.NoReply late = assertInstanceOf(McpOutcome.NoReply.class, seen.get(0));
        assertEquals(CLIENT_TIMEOUT, late.waited());
        assertEquals(List.of(), late.messages());
        assertEquals(20_000L, clock.get(0));
        assertEquals(List.of(false), result.trace().tools().stream().map(ToolRecord::committed).toList());
    }

    @Test
    void anUndeclaredServerOrAMessageThatIsNotJsonRpcIsRefused() throws Exception {
        HarnessConfig config = project();
        List<String> errors = new ArrayList<>();
        AgentLoop loop = run -> {
            Outcome o = model(run, "resolve");
            errors.add(assertThrows(IllegalArgumentException.class, () -> run.mcp("biling", SDK)).getMessage());
            McpEndpoint files = run.mcp("files", SDK);
            assertEquals("files", files.server());
            errors.add(assertThrows(IllegalArgumentException.class, () -> files.send("[1]", CLIENT_TIMEOUT))
                    .getMessage());
            return List.of(o);
        };
        Rehearsal.prepare(config, () -> loop).check(scenario(config, "plain"), 1, Rehearsal.runInvariants(config));
        assertEquals("MCP server 'biling' is not declared in mcp_servers; the declared MCP servers are: billing, files",
                errors.get(0));
        assertEquals("the message sent to MCP server 'files' is not a JSON-RPC message: it needs a string method, or"
                + " an id with a result or an error", errors.get(1));
        assertTrue(Rehearsal.runInvariants(config).contains(Invariant.SIDE_EFFECTS));
        HarnessConfig serversOnly = TestProject.create(dir, """
                version: 1
                policy: {max_total_wait: 1s}
                mcp_servers: {billing: {transport: stdio, command: [billing-server]}}
                scenarios: [{name: s, ops: [resolve]}]
                """, "resolve");
        assertTrue(Rehearsal.runInvariants(serversOnly).contains(Invariant.SIDE_EFFECTS),
                "a config with MCP servers and no tools: is judged by side_effects too");
    }
}
