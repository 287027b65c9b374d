package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * A scenario run's provider as HTTP, for SDK adapters: an adapter plugs it in as its SDK's HTTP client, sleeper and
 * clock, so that a real SDK client runs in-process on the run's cassettes, fault plan and virtual clock.
 *
 * <p>Every {@link #exchange} is one call in the run's trace. The fault plan applies one entry per attempt, as it does
 * to {@code Transport} calls: a quota becomes a 429 (with {@code Retry-After} and {@code retry-after-ms} when the
 * fault states a delay), a server error its 5xx, a timeout a {@link HttpAnswer.TimedOut}, a slow first token a 200
 * whose body arrives late, a broken tool call a 200 whose tool-call JSON is broken, and a crash a
 * {@code ProcessRecycled} thrown through the SDK (an {@link Error}, which no SDK retries).
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface HttpEndpoint {

    /**
     * Answers one attempt.
     *
     * @throws dev.resilienceharness.transport.ProcessRecycled the process died during the call
     * @throws dev.resilienceharness.cassette.CassetteMiss     no cassette answers the request (a
     *                                                        {@link RuntimeException} the run reports)
     */
    HttpAnswer exchange(HttpAttempt attempt);

    /**
     * The body of {@code response} as the SDK reads it. Its first read moves the virtual clock on by the response's
     * first-byte delay; when that delay is longer than {@code readTimeout} the read throws a
     * {@link java.net.SocketTimeoutException} after {@code readTimeout} instead, and the trace records the call as a
     * timeout.
     *
     * @param readTimeout the SDK's read timeout, or {@code null} when it has none
     */
    InputStream body(HttpAnswer.Response response, Duration readTimeout);

    /** The run's virtual clock as a {@link Clock}, for an SDK that reads the time (an HTTP-date Retry-After). */
    Clock clock();

    /**
     * Waits on the run's virtual clock on behalf of {@code sdk}'s retry layer: the wait counts towards
     * {@code max_total_wait} and the timeline marks it as the SDK's.
     */
    void sleep(Duration duration, String sdk);

    /**
     * Attributes every call made until the returned scope is closed to {@code op}: how calls an SDK makes are known
     * to be for one of the scenario's ops. Scopes nest; closing one restores the op before it.
     */
    Scope op(String op);

    /**
     * Executes one tool for the run (docs tools.md): the execution meets the scenario's next {@code tool_faults:}
     * entry for that tool, runs {@code body} unless its fault says the tool never got to, and is recorded in the
     * trace, for the op of the current scope. An adapter calls it from its framework's tool-calling hook.
     *
     * @throws Exception what {@code body} throws, or what the fault makes the tool's caller see: a
     *                   {@link dev.resilienceharness.tool.ToolFailure} for {@code error}, a
     *                   {@link java.net.SocketTimeoutException} for {@code timeout} and {@code timeout_after_commit}
     */
    default String tool(dev.resilienceharness.tool.ToolCall call, dev.resilienceharness.tool.ToolBody body)
            throws Exception {
        throw new UnsupportedOperationException("this endpoint runs no tools; only a scenario run's endpoint does");
    }

    /**
     * The MCP server {@code server} for this run (docs mcp.md): what an MCP client adapter sends its client's
     * messages through. {@code layer} names the client for the timeline and the {@code side_effects} verdicts, such
     * as {@code MCP Java SDK} or {@code langchain4j-mcp}.
     *
     * @throws IllegalArgumentException when the configuration declares no MCP server of that name
     */
    default dev.resilienceharness.mcp.McpEndpoint mcp(String server, String layer) {
        throw new UnsupportedOperationException("this endpoint reaches no MCP server; only a scenario run's endpoint"
                + " does");
    }

    /** An op scope: close it when the op's calls are done. */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** Reads all of {@code in}, as an adapter does when its SDK wants the body as bytes. */
    static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }
}
