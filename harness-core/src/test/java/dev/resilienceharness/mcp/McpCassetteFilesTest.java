package dev.resilienceharness.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class McpCassetteFilesTest {

    @Test
    void eachServerHasItsOwnFolderUnderMcp() {
        assertEquals(Path.of("cassettes", "mcp", "billing", "2026-01-01.json"),
                McpCassetteFiles.sessionFile(Path.of("cassettes"), "billing", "2026-01-01"));
    }

    @Test
    void aNameThatWouldLeaveItsFolderIsRefused() {
        for (String name : new String[] {"..", "../x", "a/b", ".hidden", "", "a\\b"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> McpCassetteFiles.serverFolder(Path.of("c"), name));
            assertEquals("'" + name + "' cannot name an MCP server: use letters, digits, '.', '_' and '-', not first"
                    + " a dot", e.getMessage());
        }
    }
}
