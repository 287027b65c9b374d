package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.CassetteException;
import dev.resilienceharness.mcp.McpCassetteReader;
import dev.resilienceharness.mcp.McpSession;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MCP sessions of a cassette folder ({@code <cassettes>/mcp/<server>/}), each server's read once when a run first
 * reaches it and shared by every run after. Safe for concurrent use.
 */
final class McpCassettes {

    /** A server's sessions, or why they could not be read. */
    private record Read(List<McpSession> sessions, CassetteException problem) {
    }

    private final McpCassetteReader reader;
    private final Map<String, Read> servers = new ConcurrentHashMap<>();

    McpCassettes(Path cassettes) {
        this.reader = new McpCassetteReader(cassettes);
    }

    /**
     * The recorded sessions of {@code server}, in file name order; none when it has no folder.
     *
     * @throws CassetteException when a session file cannot be read or is not a session
     */
    List<McpSession> sessions(String server) throws CassetteException {
        Read read = servers.computeIfAbsent(server, s -> {
            try {
                return new Read(reader.readServer(s), null);
            } catch (CassetteException e) {
                return new Read(List.of(), e);
            }
        });
        if (read.problem() != null) {
            throw read.problem();
        }
        return read.sessions();
    }

    /**
     * Forgets what was read, so that the next run reads each server's folder again: a recording run wrote sessions
     * there, and a later scenario is answered by them instead of asking the live server again.
     */
    void reread() {
        servers.clear();
    }
}
