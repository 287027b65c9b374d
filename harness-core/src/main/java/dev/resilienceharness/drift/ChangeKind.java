package dev.resilienceharness.drift;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** What a live answer changed against its cassette, in the terms a loop depends on. */
@API(status = INTERNAL, since = "0.1.0")
public enum ChangeKind {
    /** A path the cassette does not have. */
    ADDED,
    /** A path of the cassette the live answer lacks. */
    REMOVED,
    /** The same path holds another JSON type (a string became an object, a value became null). */
    TYPE_CHANGED,
    /** {@code finish_reason}, {@code stop_reason} or a Responses {@code status} changed. */
    FINISH_REASON,
    /** The cassette calls a tool; the live answer calls none. */
    TOOL_CALL_GONE,
    /** The live answer calls a tool; the cassette calls none. */
    TOOL_CALL_NEW,
    /** The live answer calls another tool at the same place. */
    TOOL_CHANGED,
    /** The live tool-call arguments break the schema the request declares; the cassette's did not. */
    ARGUMENTS_INVALID,
    /** A {@code usage} count grew beyond the tolerance. */
    USAGE_GROWTH,
    /** The first token came later than the tolerance allows. */
    FIRST_TOKEN_SLOWER,
    /** The whole answer took longer than the tolerance allows. */
    TOTAL_SLOWER;

    /** The name drift.json uses: {@code tool_call_gone}. */
    public String jsonName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
