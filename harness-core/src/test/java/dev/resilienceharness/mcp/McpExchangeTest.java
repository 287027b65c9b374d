package dev.resilienceharness.mcp;

import static dev.resilienceharness.mcp.McpSessions.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class McpExchangeTest {

    private static final McpNotification AT_9 = new McpNotification(9, "notifications/progress", null);

    @Test
    void anAnswerIsExactlyOneOfResultAndError() {
        assertThrows(IllegalArgumentException.class,
                () -> new McpExchange.Call("ping", null, List.of(), 1, json("{}"), new McpError(1, "m", null)));
        assertThrows(IllegalArgumentException.class, () -> new McpExchange.Call("ping", null, List.of(), 1, null,
                null));
    }

    @Test
    void notificationsAreInOrderAndBeforeTheAnswer() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new McpExchange.Call(
                "tools/call", null, List.of(AT_9, new McpNotification(5, "notifications/progress", null)), 20,
                json("{}"), null));
        assertEquals("notification notifications/progress at 5 ms comes before one at 9 ms", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new McpExchange.Call("tools/call", null, List.of(AT_9), 3, json("{}"), null));
        assertEquals("the answer at 3 ms comes before a notification at 9 ms", e.getMessage());
        assertEquals(9, new McpExchange.Call("tools/call", null, List.of(AT_9), 9, json("{}"), null)
                .responseOffsetMs());
    }

    @Test
    void offsetsAreNeverNegative() {
        assertThrows(IllegalArgumentException.class, () -> new McpNotification(-1, "n", null));
        assertThrows(IllegalArgumentException.class,
                () -> new McpExchange.Notice(McpExchange.Sender.SERVER, -1, "n", null));
        assertThrows(IllegalArgumentException.class, () -> McpExchange.Call.answered("ping", null, -1, json("{}")));
    }

    @Test
    void sendersAndTransportsAreNamedAsInTheFile() {
        assertEquals(McpExchange.Sender.CLIENT, McpExchange.Sender.fromKey("client"));
        assertEquals(null, McpExchange.Sender.fromKey("CLIENT"));
        assertEquals(McpTransportKind.STREAMABLE_HTTP, McpTransportKind.fromKey("streamable-http"));
        assertEquals(null, McpTransportKind.fromKey("sse"));
    }
}
