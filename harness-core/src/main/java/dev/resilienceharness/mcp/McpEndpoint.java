package dev.resilienceharness.mcp;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * One MCP server as a scenario run sees it (docs mcp.md), for an MCP client adapter: the adapter hands every JSON-RPC
 * message its client sends to {@link #send}, and delivers the {@link McpOutcome} as the client library would have
 * seen it from the real server. Requests are answered from the server's MCP cassettes and meet the scenario's MCP
 * faults on the run's virtual clock; each {@code tools/call} is a tool execution in the trace, judged by the tool
 * budget and the {@code side_effects} invariant as a local tool's is.
 *
 * <p>Obtained from {@code LoopRun.mcp(server, layer)}. Safe for concurrent use.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface McpEndpoint {

    /** The server's name, as the configuration and the cassettes name it. */
    String server();

    /**
     * Sends one client message: a request (answered by a {@link McpOutcome.Reply} holding its response, or by a
     * failure outcome) or a notification (an empty reply).
     *
     * @param message       the JSON-RPC message, as JSON text
     * @param clientTimeout how long the client waits for an answer (its request timeout): what {@code timeout},
     *                      {@code hang} and a long {@code slow} run out on the virtual clock
     * @throws McpCassetteMiss          when no recording answers the request, in a run that does not record; the
     *                                  run fails on it even if the client swallows it
     * @throws IllegalArgumentException when {@code message} is not a JSON-RPC message
     */
    McpOutcome send(String message, Duration clientTimeout);

    /**
     * Tells the run that the client turned the failure of a request it sent into an ordinary result (langchain4j-mcp
     * answers a tool timeout with the text {@code There was a timeout executing the tool}): the trace, the report and
     * the audit show that the loop was handed {@code text} as if the tool had answered.
     *
     * @param request the request's JSON-RPC message, as sent to {@link #send}
     * @param text    what the client returned instead of a failure
     */
    void failureAnsweredAsText(String request, String text);

    /**
     * Tells the run that the client waited {@code waited} for an answer to a request it sent, on its own and with no
     * outcome of {@link #send} that already ran it out: langchain4j-mcp, after a second 404 for the session in a row,
     * leaves the request to its {@code toolExecutionTimeout}. The run's virtual clock moves by it as the client's
     * waiting, on the timeline under the client's layer and towards {@code max_total_wait}. An endpoint without a
     * virtual clock (one that answers real clients, which wait in real time) does nothing, as this default does.
     *
     * @param request the request's JSON-RPC message, as sent to {@link #send}
     * @param waited  how long the client waited, zero or more
     * @throws IllegalArgumentException when {@code request} is not a request sent to this endpoint in the run, or
     *                                  {@code waited} is negative
     */
    @API(status = EXPERIMENTAL, since = "0.1.0")
    default void clientWaited(String request, Duration waited) {
    }
}
