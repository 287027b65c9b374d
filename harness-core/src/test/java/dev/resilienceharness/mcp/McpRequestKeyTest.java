package dev.resilienceharness.mcp;

import static dev.resilienceharness.mcp.McpSessions.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class McpRequestKeyTest {

    @Test
    void keyOrderAndSpacingDoNotMatter() {
        assertEquals(McpRequestKey.of("tools/call", json("{'name': 'refund', 'arguments': {'a': 1, 'b': 2}}")),
                McpRequestKey.of("tools/call", json("{'arguments':{'b':2,'a':1},'name':'refund'}")));
    }

    @Test
    void theTopLevelMetaIsLeftOutButNotOneInsideTheArguments() {
        assertEquals(McpRequestKey.of("tools/call", json("{'name': 'refund'}")),
                McpRequestKey.of("tools/call", json("{'name': 'refund', '_meta': {'progressToken': 'p-93'}}")));
        assertNotEquals(McpRequestKey.of("tools/call", json("{'arguments': {}}")),
                McpRequestKey.of("tools/call", json("{'arguments': {'_meta': 1}}")));
    }

    @Test
    void noParamsMatchEmptyParamsAndTheMethodCounts() {
        assertEquals(McpRequestKey.of("tools/list", null), McpRequestKey.of("tools/list", json("{}")));
        assertNotEquals(McpRequestKey.of("tools/list", null), McpRequestKey.of("prompts/list", null));
    }

    @Test
    void theParamsAreNotChanged() {
        var params = json("{'name': 'refund', '_meta': {'progressToken': 1}}");
        McpRequestKey.of("tools/call", params);
        assertEquals(json("{'name': 'refund', '_meta': {'progressToken': 1}}"), params);
    }
}
