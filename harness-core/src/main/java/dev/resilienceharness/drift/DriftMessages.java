package dev.resilienceharness.drift;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Locale;
import org.apiguardian.api.API;

/** Every sentence the drift check says, kept in one place so tests can assert them. */
@API(status = INTERNAL, since = "0.1.0")
public final class DriftMessages {

    private DriftMessages() {
    }

    /** What a change is, after its path. */
    static String describe(Change c) {
        return switch (c.kind()) {
            case ADDED -> "added (" + article(c.live()) + " in the live answer)";
            case REMOVED -> "removed (the cassette has " + article(c.recorded()) + ")";
            case TYPE_CHANGED -> "was " + article(c.recorded()) + ", is now " + article(c.live());
            case FINISH_REASON -> "was " + quoted(c.recorded()) + ", is now " + quoted(c.live());
            case TOOL_CALL_GONE -> "the tool call is gone (the cassette calls " + quoted(c.recorded()) + ")";
            case TOOL_CALL_NEW -> "a tool call appeared (" + quoted(c.live()) + "; the cassette calls none)";
            case TOOL_CHANGED -> "calls " + quoted(c.live()) + " instead of " + quoted(c.recorded());
            case ARGUMENTS_INVALID -> "the live arguments break the request's schema: " + c.live();
            case USAGE_GROWTH -> "grew from " + c.recorded() + " to " + c.live() + ", beyond the usage tolerance";
            case FIRST_TOKEN_SLOWER, TOTAL_SLOWER -> c.live() + " ms live against " + c.recorded()
                    + " ms recorded, beyond the latency tolerance";
        };
    }

    /** {@code string} as {@code a string}, {@code object} as {@code an object}, {@code null} as {@code null}. */
    private static String article(String kind) {
        if (kind == null || kind.equals("null")) {
            return "null";
        }
        return ("aeiou".indexOf(kind.charAt(0)) >= 0 ? "an " : "a ") + kind;
    }

    private static String quoted(String value) {
        return value == null ? "nothing" : "'" + value + "'";
    }

    /** How a cassette's drift is headed in the log: {@code cassettes/ab12.json (op plan): 2 changes}. */
    public static String drifted(String cassette, String op, int changes) {
        return cassette + " (op " + op + "): drifted, " + changes + (changes == 1 ? " change" : " changes");
    }

    /** One change of a drifted cassette, as a log line names it. */
    public static String changeLine(String cassette, String op, Change c) {
        return cassette + " (op " + op + "): " + c.line();
    }

    /** A cassette whose live answer matches. */
    public static String unchanged(String cassette, String op) {
        return cassette + " (op " + op + "): no drift";
    }

    /** Why nothing more is sent after a quota rejection. */
    public static String stoppedByQuota(String op, String retryAfter) {
        return "the provider rejected op '" + op + "' for quota" + (retryAfter == null ? ""
                : " (Retry-After: " + retryAfter + ")") + "; nothing more is sent. Run the drift check again later";
    }

    /** Why nothing more is sent once the request budget is used. */
    public static String stoppedByBudget(int max) {
        return "the drift check's budget of " + max + (max == 1 ? " request" : " requests") + " is used up; raise"
                + " -Dresilience.drift.maxRequests to send more";
    }

    /** A cassette that was not sent. */
    public static String notSent(String cassette, String op, String why) {
        return cassette + " (op " + op + "): not sent: " + why;
    }

    /** A cassette whose request the provider did not answer usably. */
    public static String failed(String cassette, String op, String why) {
        return cassette + " (op " + op + "): FAILED: " + why;
    }

    /** A transient failure. */
    public static String transientFailure(boolean timeout, int status) {
        return (timeout ? "the call timed out or the connection dropped" : "the provider answered " + status)
                + "; run the drift check again";
    }

    /** The closing line. */
    public static String total(int checked, int drifted, int notSent, int failed) {
        return checked + (checked == 1 ? " cassette" : " cassettes") + " checked: " + drifted + " drifted, "
                + (checked - drifted) + " unchanged" + (notSent > 0 ? ", " + notSent + " not sent" : "")
                + (failed > 0 ? ", " + failed + " failed" : "");
    }

    /** A cassette re-recorded because it drifted. */
    public static String updated(String cassette, String op) {
        return cassette + " (op " + op + "): re-recorded from the live answer";
    }

    /** A cassette that drifted but was not rewritten. */
    public static final String HINT_UPDATE = "the cassettes are unchanged; re-record the drifted ones with"
            + " -Dresilience.drift.update=true, or review them with mvn resilience:record -Dresilience.mode=record";

    /** An op that was asked for but has no cassette. */
    public static String noCassette(String op) {
        return "op '" + op + "' has no cassette; run mvn resilience:record first";
    }

    /** The scenario {@code -Dresilience.drift.scenario} names does not exist. */
    public static String unknownScenario(String name, String known) {
        return "-Dresilience.drift.scenario=" + name + ": no such scenario; the scenarios are: " + known;
    }

    /** A cassette older than {@code drift.max_age}. */
    public static String stale(String cassette, java.time.Instant recordedAt, java.time.Duration age,
            java.time.Duration maxAge) {
        return cassette + ": recorded at " + recordedAt + ", " + days(age) + " ago, older than drift.max_age ("
                + days(maxAge) + "); check it with mvn resilience:drift or re-record it with mvn resilience:record"
                + " -Dresilience.mode=record";
    }

    /** An age in whole days, or hours under two days, or minutes under two hours. */
    static String days(java.time.Duration d) {
        if (d.toDays() >= 2) {
            return d.toDays() + " days";
        }
        if (d.toHours() >= 2) {
            return d.toHours() + " hours";
        }
        return d.toMinutes() + " minutes";
    }

    /** The kind of a JSON node in the words a message uses. */
    static String kind(tools.jackson.databind.JsonNode n) {
        if (n == null) {
            return null;
        }
        return switch (n.getNodeType()) {
            case OBJECT -> "object";
            case ARRAY -> "array";
            case STRING -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "boolean";
            case NULL -> "null";
            default -> n.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }
}
