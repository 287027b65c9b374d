package dev.resilienceharness.mcp;

import static dev.resilienceharness.mcp.McpSessions.json;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McpCassetteWriterTest {

    @TempDir
    Path cassettes;

    @Test
    void aSessionReadsBackAsItWasWritten() throws Exception {
        McpSession session = McpSessions.billing();
        Path file = McpCassetteFiles.sessionFile(cassettes, "billing", "s1");
        McpCassetteWriter.write(file, session);

        McpSession read = new McpCassetteReader(cassettes).read(file);

        assertEquals(file, read.file());
        assertEquals(new McpSession(file, session.server(), session.transport(), session.exchanges()), read);
    }

    @Test
    void notificationsKeepTheirOrderAndOffsets() throws Exception {
        Path file = McpCassetteFiles.sessionFile(cassettes, "billing", "s1");
        McpCassetteWriter.write(file, McpSessions.billing());

        McpSession read = new McpCassetteReader(cassettes).read(file);

        McpExchange.Call slow = (McpExchange.Call) read.exchanges().get(3);
        assertEquals(List.of("notifications/progress@100", "notifications/message@100",
                        "notifications/progress@900"),
                slow.notifications().stream().map(n -> n.method() + "@" + n.offsetMs()).toList());
        assertEquals(1500, slow.responseOffsetMs());
        assertEquals(json("{'progressToken': 7, 'progress': 2, 'total': 2}"), slow.notifications().get(2).params());
        McpExchange.Notice changed = (McpExchange.Notice) read.exchanges().get(4);
        assertEquals(new McpExchange.Notice(McpExchange.Sender.SERVER, 40, "notifications/tools/list_changed", null),
                changed);
        assertEquals(McpExchange.Sender.CLIENT, ((McpExchange.Notice) read.exchanges().get(1)).from());
    }

    @Test
    void theFileIsIndentedWithAFixedKeyOrderAndSortedValues() {
        McpSession session = new McpSession("billing", McpTransportKind.STREAMABLE_HTTP, List.of(
                McpExchange.Call.answered("tools/call", json("{'name': 'refund', 'arguments': {'z': 1, 'a': 2}}"),
                        7, json("{'isError': false, 'content': []}"))));

        assertEquals("""
                {
                  "version": 1,
                  "server": "billing",
                  "transport": "streamable-http",
                  "exchanges": [
                    {
                      "request": {
                        "method": "tools/call",
                        "params": {
                          "arguments": {
                            "a": 2,
                            "z": 1
                          },
                          "name": "refund"
                        }
                      },
                      "response": {
                        "offset_ms": 7,
                        "result": {
                          "content": [],
                          "isError": false
                        }
                      }
                    }
                  ]
                }""", McpCassetteWriter.text(session));
    }

    @Test
    void writingTheSameSessionTwiceWritesTheSameBytesAndLeavesNoTemporaryFile() throws Exception {
        Path file = McpCassetteFiles.sessionFile(cassettes, "billing", "s1");
        McpCassetteWriter.write(file, McpSessions.billing());
        byte[] first = Files.readAllBytes(file);
        McpCassetteWriter.write(file, McpSessions.billing());

        assertArrayEquals(first, Files.readAllBytes(file));
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertEquals(List.of(file), files.toList());
        }
        assertTrue(Json.readTree(first).isObject());
    }

    @Test
    void anErrorAnswerKeepsItsCodeMessageAndData() throws Exception {
        Path file = McpCassetteFiles.sessionFile(cassettes, "billing", "s1");
        McpCassetteWriter.write(file, McpSessions.billing());

        McpExchange.Call failed = (McpExchange.Call) new McpCassetteReader(cassettes).read(file).exchanges().get(7);

        assertEquals(new McpError(-32602, "unknown order", json("{'order': 'Z'}")), failed.error());
        assertEquals(null, failed.result());
    }
}
