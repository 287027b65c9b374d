package dev.resilienceharness.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * One tool execution during a scenario run, as the {@code side_effects} invariant, the tool budget and the report's
 * timeline see it.
 *
 * @param index          0-based position among the run's tool executions
 * @param op             the op it ran for (the scope it ran in, else the op of the run's last model call)
 * @param round          the model round whose answer asked for it: how many of the op's calls in this process
 *                       had been answered when it ran (0 before any)
 * @param name           the tool's name
 * @param arguments      its arguments, as canonical JSON when they parse, else as sent
 * @param fingerprint    the fingerprint of {@code name} and the canonical arguments: equal for the same logical call
 * @param idempotencyKey the key it carried that its declaration says the tool honours, else {@code null}
 * @param fault          the tool fault it met ({@code none} when it met none)
 * @param result         how it ended for its caller
 * @param committed      whether the tool's own code ran to the end: it took effect
 * @param layer          who executed it ({@code the loop}, {@code Spring AI}, {@code langchain4j}, ...)
 * @param atNanos        virtual time it started, nanoseconds after the run's start
 * @param endNanos       virtual time its caller had an answer or a failure
 * @param incarnation    which process incarnation ran it
 * @param afterCall      the index of the run's last model call for its op before it, or -1
 * @param replayed       its result came from the tool's recordings ({@code replay: recorded}), not its code
 * @param server         the MCP server that served it (docs mcp.md), or {@code null} for a tool the loop ran itself
 * @param answeredAsText what the loop was handed instead of the failure, when the MCP client turned the failure into
 *                       an ordinary result (such as langchain4j-mcp's timeout text); else {@code null}
 */
@API(status = INTERNAL, since = "0.1.0")
public record ToolRecord(int index, String op, int round, String name, String arguments, String fingerprint,
        String idempotencyKey, String fault, Result result, boolean committed, String layer, long atNanos,
        long endNanos, int incarnation, int afterCall, boolean replayed, String server, String answeredAsText) {

    /** An execution of a tool the loop ran itself. */
    public ToolRecord(int index, String op, int round, String name, String arguments, String fingerprint,
            String idempotencyKey, String fault, Result result, boolean committed, String layer, long atNanos,
            long endNanos, int incarnation, int afterCall, boolean replayed) {
        this(index, op, round, name, arguments, fingerprint, idempotencyKey, fault, result, committed, layer, atNanos,
                endNanos, incarnation, afterCall, replayed, null, null);
    }

    /** This execution, noted as handed to the loop as the ordinary result {@code text}. */
    public ToolRecord answeredAsText(String text) {
        return new ToolRecord(index, op, round, name, arguments, fingerprint, idempotencyKey, fault, result, committed,
                layer, atNanos, endNanos, incarnation, afterCall, replayed, server, text);
    }

    /** How a tool execution ended for its caller. */
    public enum Result {
        /** It answered. */
        OK,
        /** It threw. */
        ERROR,
        /** Its caller saw a timeout. */
        TIMEOUT,
        /** It answered with a result that breaks its output schema. */
        INVALID_RESULT
    }
}
