package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * A {@code replay: recorded} tool was executed in a rehearsal and no usable recording answers the call: the run fails
 * under the cassettes invariant, as on a model cassette miss, and the tool's own code never runs. The message names
 * the tool, the fingerprint of the call, the nearest recording of the same tool with the argument paths that differ,
 * and what to do.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ToolRecordingMiss extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** How to record what is missing. */
    public static final String HINT = "The tool is declared replay: recorded, so rehearsal never runs it: run mvn"
            + " resilience:record to record its result";

    /** The most differing argument paths a miss names. */
    private static final int MAX_PATHS = 8;

    private final String tool;
    private final String fingerprint;

    private ToolRecordingMiss(String tool, String fingerprint, String message) {
        super(message, null, false, false);
        this.tool = tool;
        this.fingerprint = fingerprint;
    }

    /**
     * No recording answers the call; {@code nearest} is the recording of the same tool whose arguments differ least,
     * named with the argument paths that differ, or {@code null} when the tool has none. The arguments are named by
     * their fingerprint and paths only, never their values: they may hold what a log must not show.
     */
    public static ToolRecordingMiss missing(String tool, String fingerprint, ToolRecordings.Nearest nearest) {
        StringBuilder sb = new StringBuilder("no recording of tool '").append(tool).append("' for these arguments:"
                + " looked for ").append(ToolRecordings.FOLDER).append('/').append(fingerprint).append(".json");
        if (nearest != null) {
            sb.append("; the nearest recording of '").append(tool).append("' is ").append(ToolRecordings.FOLDER)
                    .append('/').append(nearest.fingerprint()).append(".json, whose arguments differ at ");
            List<String> paths = nearest.differingPaths();
            sb.append(String.join(", ", paths.size() > MAX_PATHS ? paths.subList(0, MAX_PATHS) : paths));
            if (paths.size() > MAX_PATHS) {
                sb.append(" and ").append(paths.size() - MAX_PATHS).append(" more");
            }
        }
        return new ToolRecordingMiss(tool, fingerprint, sb.append(". ").append(HINT).toString());
    }

    /** The call's recording is there but cannot be used: {@code problem} says why. */
    public static ToolRecordingMiss unusable(String tool, String fingerprint, CassetteException problem) {
        return new ToolRecordingMiss(tool, fingerprint, "the recording of tool '" + tool + "' (" + fingerprint
                + ") is unusable: " + problem.getMessage());
    }

    /** The tool's name. */
    public String tool() {
        return tool;
    }

    /** The fingerprint of the call looked for: its recording's file name without {@code .json}. */
    public String fingerprint() {
        return fingerprint;
    }
}
