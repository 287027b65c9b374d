package dev.resilienceharness.mcpclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.clients.tck.RehearsalProject;
import dev.resilienceharness.invariant.Invariant;
import dev.resilienceharness.invariant.Violation;
import dev.resilienceharness.loop.AgentLoop;
import dev.resilienceharness.loop.LoopRun;
import dev.resilienceharness.loop.Outcome;
import dev.resilienceharness.scenario.Rehearsal;
import dev.resilienceharness.scenario.ScenarioResult;
import dev.resilienceharness.trace.McpRecord;
import dev.resilienceharness.trace.RunTrace;
import dev.resilienceharness.trace.ToolRecord;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.Exceptions;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The MCP Java SDK's real clients in scenario runs the harness makes: the billing server's session replayed offline
 * from an MCP cassette, each MCP fault as the sync and the async client see it, a session expiry in the middle of a
 * refund met by careful and by blind loops, all on the virtual clock.
 */
class McpRehearsalTest {

    private static final String YAML = """
            version: 1
            policy: {max_total_wait: 120s}
            mcp_servers:
              billing: {transport: streamable_http, url: "http://127.0.0.1:8931/mcp"}
            tools:
              refund: {side_effects: true, server: billing}
              keyed_refund: {side_effects: true, idempotency_key: /refund_id, server: billing}
              lookup_order: {server: billing}
            scenarios:
              - {name: plain, ops: [resolve]}
              - name: faults
                ops: [resolve]
                tool_faults:
                  refund: [error, protocol_error, timeout, {slow: 2s, progress: 2}, {rate_limited: 2s},
                           invalid_result, tools_changed, none]
              - name: expiry
                ops: [resolve]
                tool_faults: {refund: [session_expired], keyed_refund: [session_expired]}
              - name: exit
                ops: [resolve]
                mcp_faults: {billing: [none, none, server_exit]}
            """;

    @TempDir
    Path dir;

    private RehearsalProject project() throws Exception {
        return RecordedBilling.project(dir, YAML);
    }

    private ScenarioResult replay(String scenario, AgentLoop loop) throws Exception {
        RehearsalProject project = project();
        return project.replay(scenario, () -> loop, 1, Rehearsal.runInvariants(project.config()));
    }

    private static McpSchema.CallToolRequest call(String tool, Map<String, Object> arguments) {
        return new McpSchema.CallToolRequest(tool, arguments, Map.of("progressToken", "p-" + tool));
    }

    private static Outcome done(String text) {
        return Outcome.ok("resolve", JsonNodeFactory.instance.stringNode(text), 1);
    }

    /** What one call came to, as a line: the result's first text, or the failure's type and message. */
    private static String seen(Function<McpSchema.CallToolRequest, McpSchema.CallToolResult> client,
            McpSchema.CallToolRequest request) {
        try {
            McpSchema.CallToolResult result = client.apply(request);
            String text = result.content().isEmpty() ? "" : ((McpSchema.TextContent) result.content().get(0)).text();
            return (Boolean.TRUE.equals(result.isError()) ? "error result: " : "result: ") + text;
        } catch (RuntimeException e) {
            Throwable t = Exceptions.unwrap(e);
            return t.getClass().getSimpleName() + ": " + t.getMessage();
        }
    }

    @Test
    void initializeListAndCallAreReplayedOfflineFromTheCassette() throws Exception {
        List<String> seen = new ArrayList<>();
        ScenarioResult result = replay("plain", run -> {
            seen.clear();
            McpSyncClient billing = HarnessMcp.syncClient(run, "billing");
            McpSchema.InitializeResult init = billing.initialize();
            seen.add(init.serverInfo().name());
            seen.add(billing.listTools().tools().stream().map(McpSchema.Tool::name).toList().toString());
            seen.add(seen(billing::callTool, call("lookup_order", RecordedBilling.LOOKUP)));
            return List.of(done(seen.get(2)));
        });
        assertEquals(List.of("billing", "[lookup_order, refund, keyed_refund]", "result: order B-2: refunded"), seen);
        assertEquals(List.of(), result.violations(), result.violations().toString());
        RunTrace trace = result.trace();
        assertNull(trace.failure());
        assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "lookup_order"),
                trace.mcp().stream().map(McpRecord::label).toList());
        assertTrue(trace.mcp().stream().allMatch(r -> HarnessMcp.LAYER.equals(r.layer())));
        ToolRecord lookup = trace.tools().get(0);
        assertEquals("billing", lookup.server());
        assertEquals("the loop over " + HarnessMcp.LAYER, lookup.layer());
    }

    @Test
    void aCallNoCassetteAnswersFailsTheRunEvenWhenTheLoopCatchesWhatTheClientThrows() throws Exception {
        List<String> seen = new ArrayList<>();
        ScenarioResult result = replay("plain", run -> {
            seen.clear();
            McpSyncClient billing = HarnessMcp.syncClient(run, "billing");
            billing.initialize();
            seen.add(seen(billing::callTool, call("lookup_order", Map.of("order", "Z-9"))));
            return List.of(done("looked"));
        });
        assertTrue(seen.get(0).startsWith("McpCassetteMiss: MCP server 'billing' has no recorded answer for tools/call"
                + " of tool 'lookup_order'"), seen.get(0));
        assertEquals(RunTrace.Kind.CASSETTE, result.trace().failure().kind());
        assertEquals(seen.get(0).substring("McpCassetteMiss: ".length()), result.trace().failure().message());
    }

    /** Calls refund once per fault of the scenario, with the client {@code sync} says, and keeps what it saw. */
    private static AgentLoop eachFault(boolean sync, List<String> seen,
            java.util.concurrent.atomic.AtomicReference<List<Object>> notifiedOfLastRun) {
        return run -> {
            seen.clear();
            // Each run's clients get their own list: a client of an earlier run may still be handing its consumers
            // a notification on its own thread.
            List<Object> notified = new CopyOnWriteArrayList<>();
            notifiedOfLastRun.set(notified);
            Function<McpSchema.CallToolRequest, McpSchema.CallToolResult> refund;
            if (sync) {
                McpSyncClient billing = HarnessMcp.syncClient(run, "billing", spec -> spec
                        .enableCallToolSchemaCaching(true).progressConsumer(notified::add)
                        .toolsChangeConsumer(notified::add));
                billing.initialize();
                billing.listTools();
                refund = billing::callTool;
            } else {
                McpAsyncClient billing = HarnessMcp.asyncClient(run, "billing", spec -> spec
                        .enableCallToolSchemaCaching(true)
                        .progressConsumer(p -> reactor.core.publisher.Mono.fromRunnable(() -> notified.add(p)))
                        .toolsChangeConsumer(t -> reactor.core.publisher.Mono.fromRunnable(() -> notified.add(t))));
                billing.initialize().block();
                billing.listTools().block();
                refund = r -> billing.callTool(r).block();
            }
            for (int i = 0; i < 8; i++) {
                seen.add(seen(refund, call("refund", RecordedBilling.REFUND)));
            }
            return List.of(done(seen.get(seen.size() - 1)));
        };
    }

    private void assertEachFault(boolean sync) throws Exception {
        List<String> seen = new ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<List<Object>> notifiedOfLastRun =
                new java.util.concurrent.atomic.AtomicReference<>();
        ScenarioResult result = replay("faults", eachFault(sync, seen, notifiedOfLastRun));
        List<Object> notified = notifiedOfLastRun.get();
        assertEquals(List.of(
                "error result: " + seen.get(0).substring("error result: ".length()),
                "McpError: " + seen.get(1).substring("McpError: ".length()),
                "TimeoutException: Did not observe any item or terminal signal within 20000ms in"
                        + " 'source(MonoDeferContextual)' (and no fallback has been configured)",
                "result: refunded B-2",
                "McpTransportException: Received unexpected status code: 429",
                "IllegalArgumentException: " + seen.get(5).substring("IllegalArgumentException: ".length()),
                "result: refunded B-2",
                "result: refunded B-2"), seen);
        assertTrue(seen.get(5).startsWith("IllegalArgumentException: Tool call result validation failed:"),
                seen.get(5));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (notified.size() < 3 && System.nanoTime() < deadline) {
            Thread.onSpinWait();       // the sync client hands consumers their notifications on its own thread
        }
        assertEquals(2, notified.stream().filter(McpSchema.ProgressNotification.class::isInstance).count(),
                notified.toString());
        assertEquals(1, notified.stream().filter(List.class::isInstance).count(), notified.toString());

        RunTrace trace = result.trace();
        List<McpRecord> refunds = trace.mcp().stream().filter(r -> "refund".equals(r.label())).toList();
        assertEquals(List.of(McpRecord.Outcome.TOOL_ERROR, McpRecord.Outcome.PROTOCOL_ERROR,
                McpRecord.Outcome.NO_REPLY, McpRecord.Outcome.RESULT, McpRecord.Outcome.THROTTLED,
                McpRecord.Outcome.RESULT, McpRecord.Outcome.RESULT, McpRecord.Outcome.RESULT),
                refunds.stream().map(McpRecord::outcome).toList());
        // The timeout is the client's 20 s, the slow answer 2 s past the recorded 40 ms, all on the virtual clock;
        // nothing slept for real, and none of it is the loop's waiting.
        assertEquals(Duration.ofSeconds(20).toNanos(), refunds.get(2).endNanos() - refunds.get(2).atNanos());
        assertEquals(Duration.ofMillis(2040).toNanos(), refunds.get(3).endNanos() - refunds.get(3).atNanos());
        assertEquals(Duration.ZERO, trace.totalWait());
        assertEquals(List.of(), trace.realSleeps());
        assertNull(trace.failure());
    }

    @Test
    void eachFaultAsTheSyncClientSeesIt() throws Exception {
        assertEachFault(true);
    }

    @Test
    void eachFaultAsTheAsyncClientSeesIt() throws Exception {
        assertEachFault(false);
    }

    @Test
    void aServerThatExitsIsTheLostConnectionAndANewSessionCallsOn() throws Exception {
        List<String> seen = new ArrayList<>();
        ScenarioResult result = replay("exit", run -> {
            seen.clear();
            McpSyncClient billing = HarnessMcp.syncClient(run, "billing");
            billing.initialize();
            seen.add(seen(billing::callTool, call("lookup_order", RecordedBilling.LOOKUP)));
            seen.add(seen(billing::callTool, call("lookup_order", RecordedBilling.LOOKUP)));
            billing.closeGracefully();
            McpSyncClient again = HarnessMcp.syncClient(run, "billing");
            again.initialize();
            seen.add(seen(again::callTool, call("lookup_order", RecordedBilling.LOOKUP)));
            return List.of(done(seen.get(2)));
        });
        assertEquals("result: order B-2: refunded", seen.get(0));
        assertTrue(seen.get(1).startsWith("IOException: "), seen.get(1));
        assertEquals("result: order B-2: refunded", seen.get(2));
        assertTrue(result.trace().mcp().stream().anyMatch(r -> r.outcome() == McpRecord.Outcome.SERVER_GONE));
    }

    /** Refunds B-2; when the call fails with the session lost, {@code afterwards} decides what the loop does next. */
    private static AgentLoop refundThen(String tool, Map<String, Object> arguments,
            Function<McpSyncClient, String> afterwards, List<String> seen) {
        return run -> {
            seen.clear();
            McpSyncClient billing = HarnessMcp.syncClient(run, "billing");
            billing.initialize();
            String first = seen(billing::callTool, call(tool, arguments));
            seen.add(first);
            if (!first.startsWith("result: ")) {
                seen.add(afterwards.apply(billing));
            }
            return List.of(done(seen.get(seen.size() - 1)));
        };
    }

    @Test
    void aCarefulLoopThatChecksWithTheReadToolAfterAnExpiryPasses() throws Exception {
        List<String> seen = new ArrayList<>();
        ScenarioResult result = replay("expiry", refundThen("refund", RecordedBilling.REFUND,
                billing -> seen(billing::callTool, call("lookup_order", RecordedBilling.LOOKUP)), seen));
        assertEquals(List.of("RuntimeException: MCP session with server terminated", "result: order B-2: refunded"),
                seen);
        assertEquals(List.of(), result.violations(), result.violations().toString());
        assertEquals(List.of("initialize", "notifications/initialized", "refund", "initialize",
                "notifications/initialized", "lookup_order"),
                result.trace().mcp().stream().map(McpRecord::label).toList());
    }

    @Test
    void aLoopThatRetriesWithTheDeclaredIdempotencyKeyPasses() throws Exception {
        List<String> seen = new ArrayList<>();
        ScenarioResult result = replay("expiry", refundThen("keyed_refund", RecordedBilling.KEYED_REFUND,
                billing -> seen(billing::callTool, call("keyed_refund", RecordedBilling.KEYED_REFUND)), seen));
        assertEquals(List.of("RuntimeException: MCP session with server terminated", "result: refunded r-B-2"), seen);
        assertEquals(List.of(), result.violations(), result.violations().toString());
    }

    @Test
    void aBlindLoopThatRefundsAgainAfterAnExpiryFailsSideEffects() throws Exception {
        List<String> seen = new ArrayList<>();
        ScenarioResult result = replay("expiry", refundThen("refund", RecordedBilling.REFUND,
                billing -> seen(billing::callTool, call("refund", RecordedBilling.REFUND)), seen));
        assertEquals(List.of("RuntimeException: MCP session with server terminated", "result: refunded B-2"), seen);
        List<Violation> v = result.violations();
        assertEquals(List.of(Invariant.SIDE_EFFECTS), v.stream().map(Violation::invariant).toList(), v.toString());
        assertTrue(v.get(0).message().startsWith("tool 'refund' of MCP server 'billing' took effect 2 times"),
                v.get(0).message());
        assertTrue(v.get(0).message().contains(HarnessMcp.LAYER), v.get(0).message());
    }
}
