package dev.resilienceharness.invariant;

import dev.resilienceharness.trace.ToolRecord;

/** What the {@code side_effects} invariant and the tool budget say (docs invariants/side-effects.md). */
final class ToolMessages {

    private ToolMessages() {
    }

    static String executions(int n) {
        return n + (n == 1 ? " execution" : " executions") + " that took effect";
    }

    static String toolCalls(int n) {
        return n + (n == 1 ? " tool execution" : " tool executions");
    }

    static String repeated(ToolRecord first, ToolRecord repeat, int times, String layer) {
        return "tool '" + first.name() + "'" + (first.server() == null ? "" : " of MCP server '" + first.server()
                + "'") + " took effect " + times + " times for one logical call (arguments "
                + first.fingerprint() + "): " + describe(first) + ", then " + describe(repeat) + "; repeated by "
                + layer;
    }

    static String describe(ToolRecord r) {
        String how = switch (r.result()) {
            case OK -> "answered";
            case ERROR -> "threw";
            case TIMEOUT -> "timed out for its caller";
            case INVALID_RESULT -> "answered with an invalid result";
        };
        String fault = "none".equals(r.fault()) ? "" : " under " + r.fault();
        return "execution " + (r.index() + 1) + " in round " + r.round() + (r.incarnation() > 0 ? " of process "
                + (r.incarnation() + 1) : "") + " (" + how + fault + ")";
    }

    static String restart(ToolRecord repeat) {
        return repeat.layer() + " after a restart: the resumed op ran its rounds again";
    }

    static String retried(ToolRecord first, ToolRecord repeat) {
        return repeat.layer() + ", which retried the tool itself" + (first.result() == ToolRecord.Result.TIMEOUT
                ? " after it timed out" : "") + " without asking the model again";
    }

    static String askedAgain(ToolRecord repeat) {
        return repeat.layer() + ", which sent the tool's outcome back to the model and ran the tool again when the"
                + " model asked for it again";
    }

    static final String HINT_RESTART = "Record the tool's effect in the journal before the process can die and skip"
            + " it on resume, or give the tool an idempotency key derived from the op (tools.<name>.idempotency_key)"
            + " that the tool honours";

    static final String HINT_RETRY = "Never retry a side-effecting tool blindly after a timeout: pass an idempotency"
            + " key the tool honours (tools.<name>.idempotency_key), or check whether the first execution took"
            + " effect before running it again";

    /**
     * The hint for a tool the same layer ran again, naming what befell the first execution: {@link #HINT_RETRY} after
     * a timeout; after a lost MCP session or an exited server, the call may have taken effect before the server went,
     * so a careful loop looks with one of the server's read tools first, or passes a key the tool honours.
     */
    static String retryHint(ToolRecord first) {
        String after;
        if ("session_expired".equals(first.fault())) {
            after = "after its MCP session was lost (session_expired): the first call may have taken effect before"
                    + " the server dropped the session";
        } else if ("server_exit".equals(first.fault())) {
            after = "after its MCP server exited (server_exit): the first call may have taken effect before the"
                    + " server went";
        } else if (first.result() == ToolRecord.Result.TIMEOUT) {
            return HINT_RETRY;
        } else if (first.result() == ToolRecord.Result.ERROR) {
            after = "after it threw: it may have taken effect before it failed";
        } else {
            return "Never run a side-effecting tool again after it answered: it took effect. Use its first answer, or"
                    + " pass an idempotency key the tool honours (tools.<name>.idempotency_key), so that running it"
                    + " again does not repeat the effect";
        }
        String look = first.server() == null ? "check whether the first execution took effect"
                : "look with a read tool of MCP server '" + first.server() + "' whether the first call took effect";
        return "Never run a side-effecting tool again blindly " + after + ". " + Character.toUpperCase(look.charAt(0))
                + look.substring(1) + ", or pass an idempotency key the tool honours (tools.<name>.idempotency_key),"
                + " before running it again";
    }

    static final String HINT_ASKED_AGAIN = "Tell the model the tool took effect instead of a bare failure, or pass an"
            + " idempotency key the tool honours (tools.<name>.idempotency_key), so that a repeated request does not"
            + " repeat the effect";

    static String perOp(int executions, int cap) {
        return "the op made " + executions + " tool executions, more than budget.max_tool_calls_per_op (" + cap + ")";
    }

    static String identical(String tool, String fingerprint, int times, int cap) {
        return "tool '" + tool + "' ran " + times + " times with the same arguments (" + fingerprint
                + "), more than budget.max_identical_tool_calls (" + cap + "): the agent is looping";
    }

    static final String HINT_PER_OP = "Bound the tool calls a turn may make, or raise budget.max_tool_calls_per_op if"
            + " the turn really needs them";

    static final String HINT_IDENTICAL = "Stop the turn when the model asks for the same tool with the same arguments"
            + " again: hand it the earlier result, or end the turn degraded";
}
