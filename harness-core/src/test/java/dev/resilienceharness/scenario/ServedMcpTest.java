package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.config.HarnessConfig;
import dev.resilienceharness.config.Scenario;
import dev.resilienceharness.mcp.McpEndpoint;
import dev.resilienceharness.mcp.McpOutcome;
import dev.resilienceharness.testing.McpProject;
import dev.resilienceharness.trace.McpRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MCP servers of a run of serve: the rehearsal's runtime on a clock of its own, each message in op mcp:server. */
class ServedMcpTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static Scenario scenario(HarnessConfig config, String name) {
        return config.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static void initialize(McpEndpoint billing) {
        assertInstanceOf(McpOutcome.Reply.class, billing.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\"}}", TIMEOUT));
        billing.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", TIMEOUT);
    }

    @Test
    void aServedServerAnswersFromItsSessionsOnItsOwnClockInTheServersOp() throws Exception {
        HarnessConfig config = McpProject.create(dir);
        ServedMcp served = new ServedMcp(config, scenario(config, "plain"));
        McpEndpoint billing = served.endpoint("billing");
        initialize(billing);
        assertEquals(Duration.ofMillis(20), served.elapsed(), "initialize's recorded offset");
        McpOutcome lookup = billing.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"lookup\",\"arguments\":{\"order\":7}}}", TIMEOUT);
        assertTrue(((McpOutcome.Reply) lookup).messages().get(0).contains("order 7: paid"));
        assertEquals(Duration.ofMillis(70), served.elapsed());
        assertEquals(List.of("initialize", "notifications/initialized", "tools/call"),
                served.records().stream().map(McpRecord::method).toList());
        assertTrue(served.records().stream().allMatch(r -> r.op().equals("mcp:billing")
                && r.layer().equals(ServedMcp.LAYER)));
        assertEquals("lookup", served.tools().get(0).name());
        assertEquals("mcp:billing", served.tools().get(0).op());
    }

    @Test
    void aScenariosToolFaultsApplyAndAnUndeclaredServerIsRefused() throws Exception {
        HarnessConfig config = McpProject.create(dir);
        ServedMcp served = new ServedMcp(config, scenario(config, "expiry"));
        McpEndpoint billing = served.endpoint("billing");
        initialize(billing);
        assertInstanceOf(McpOutcome.SessionNotFound.class, billing.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"
                + "\"tools/call\",\"params\":{\"name\":\"refund\",\"arguments\":{\"order\":7}}}", TIMEOUT));
        assertEquals("session_expired", served.records().get(2).fault());
        assertThrows(IllegalArgumentException.class, () -> served.endpoint("ledger"));
    }
}
