package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.time.Duration;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Where a recording run ({@code mvn resilience:record}, docs recording.md) sends the MCP requests no cassette
 * answers: the team's real server, over the transport the configuration names. Each call it answers is also kept for
 * the server's cassettes, which are written when the recording ends ({@link #close}).
 */
@API(status = INTERNAL, since = "0.1.0")
public interface McpLive extends AutoCloseable {

    /**
     * Asks the live server {@code server} the request {@code method} with {@code params}, starting a session with it
     * first when there is none, and returns the call as recorded: the server's notifications while it worked, its
     * answer and their virtual offsets.
     *
     * @param timeout how long to wait for the answer, in real time
     * @throws IOException when the server cannot be reached, exits, or does not answer in time
     */
    McpExchange.Call call(String server, String method, JsonNode params, Duration timeout) throws IOException;

    /**
     * Sends a client notification ({@code notifications/initialized}, {@code notifications/cancelled}) to the live
     * server {@code server}, and keeps it for its cassettes.
     *
     * @throws IOException when the server cannot be reached
     */
    void notice(String server, String method, JsonNode params) throws IOException;

    /**
     * Tells the client's own {@code initialize} params for {@code server}, sent in the run whether a cassette or the
     * live server answers them, so that a live session opened later for a request no cassette answers starts as the
     * client's did. An implementation that opens no sessions of its own may ignore it, as this default does.
     */
    default void clientInitialize(String server, JsonNode params) {
    }

    /** Ends the live sessions and writes what they recorded to the servers' cassettes. */
    @Override
    void close() throws IOException;
}
