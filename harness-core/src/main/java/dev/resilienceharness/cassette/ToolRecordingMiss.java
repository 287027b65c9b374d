package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * A {@code replay: recorded} tool was executed in a rehearsal and no usable recording answers the call: the run fails
 * under the cassettes invariant, as on a model cassette miss, and the tool's own code never runs. The message names
 * the tool, the fingerprint of the call and what to do.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class ToolRecordingMiss extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** How to record what is missing. */
    public static final String HINT = "The tool is declared replay: recorded, so rehearsal never runs it: run mvn"
            + " resilience:record to record its result";

    private final String tool;
    private final String fingerprint;

    private ToolRecordingMiss(String tool, String fingerprint, String message) {
        super(message, null, false, false);
        this.tool = tool;
        this.fingerprint = fingerprint;
    }

    /**
     * No recording answers the call. The arguments are named by their fingerprint only: they may hold what a log must
     * not show.
     */
    public static ToolRecordingMiss missing(String tool, String fingerprint) {
        return new ToolRecordingMiss(tool, fingerprint, "no recording of tool '" + tool + "' for these arguments:"
                + " looked for " + ToolRecordings.FOLDER + "/" + fingerprint + ".json. " + HINT);
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
