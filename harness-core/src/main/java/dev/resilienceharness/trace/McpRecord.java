package dev.resilienceharness.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One message an MCP client sent to a server during a scenario run (docs mcp.md), as the report's timeline and
 * {@code report.json} show it. A {@code tools/call} is also a {@link ToolRecord}, which the tool budget and
 * {@code side_effects} judge.
 *
 * @param index          0-based position among the run's MCP messages
 * @param server         the server's name
 * @param method         the JSON-RPC method, such as {@code tools/call} or {@code notifications/initialized}
 * @param tool           for {@code tools/call}, the tool's name; else {@code null}
 * @param fault          the MCP fault it met ({@code none} when it met none)
 * @param outcome        what the client saw
 * @param committed      for {@code tools/call}, whether the server ran the tool to the end: it took effect
 * @param op             the op it was sent for
 * @param round          the model round it was sent in, as for {@link ToolRecord#round()}
 * @param layer          the client that sent it ({@code MCP Java SDK}, {@code langchain4j-mcp}, ...)
 * @param atNanos        virtual time it was sent, nanoseconds after the run's start
 * @param endNanos       virtual time the client had its outcome
 * @param incarnation    which process incarnation sent it
 * @param afterCall      the index of the run's last model call for its op before it, or -1
 * @param answeredAsText what the client handed the loop instead of the failure, when it turned the failure into an
 *                       ordinary result; else {@code null}
 */
@API(status = INTERNAL, since = "0.1.0")
public record McpRecord(int index, String server, String method, String tool, String fault, Outcome outcome,
        boolean committed, String op, int round, String layer, long atNanos, long endNanos, int incarnation,
        int afterCall, String answeredAsText) {

    public McpRecord {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(outcome, "outcome");
    }

    /** This message, noted as handed to the loop as the ordinary result {@code text}. */
    public McpRecord answeredAsText(String text) {
        return new McpRecord(index, server, method, tool, fault, outcome, committed, op, round, layer, atNanos,
                endNanos, incarnation, afterCall, text);
    }

    /** The label the timeline and {@code report.json} give it: the tool's name for {@code tools/call}, else the method. */
    public String label() {
        return tool != null ? tool : method;
    }

    /** What the client saw for one message. */
    public enum Outcome {
        /** A result. */
        RESULT("result"),
        /** A tool result with {@code isError: true}. */
        TOOL_ERROR("tool error"),
        /** A JSON-RPC error. */
        PROTOCOL_ERROR("protocol error"),
        /** No answer before the client's timeout. */
        NO_REPLY("no reply"),
        /** A 404 for the session. */
        SESSION_NOT_FOUND("session not found"),
        /** The server went away. */
        SERVER_GONE("server gone"),
        /** A 429 with {@code Retry-After}. */
        THROTTLED("throttled"),
        /** A notification the client sent: nothing to answer. */
        NOTICE("notice");

        private final String text;

        Outcome(String text) {
            this.text = text;
        }

        /** How the report writes it. */
        public String text() {
            return text;
        }
    }
}
