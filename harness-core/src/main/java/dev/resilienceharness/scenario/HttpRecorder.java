package dev.resilienceharness.scenario;

import dev.resilienceharness.cassette.ToolRecording;
import dev.resilienceharness.http.HttpAttempt;
import dev.resilienceharness.tool.ToolBody;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Records what no cassette answers an SDK with: sends it to the live provider and writes a redacted cassette; and what
 * no recording answers a {@code replay: recorded} tool with: runs the tool's code once and writes a redacted recording.
 */
interface HttpRecorder {

    /** Sends {@code request} for {@code op} as {@code attempt} went out, writes its cassette, and returns it. */
    OpExchange record(String op, ObjectNode request, HttpAttempt attempt);

    /**
     * Runs {@code body}, the code of {@code tool}, for a call no recording answers, writes its recording, and returns
     * what was written (redacted, as the rehearsal will replay it).
     *
     * @param arguments the call's parsed arguments, or a JSON string holding arguments that are not JSON
     * @throws Exception what the tool's code threw; nothing is then recorded
     */
    ToolRecording recordTool(String tool, JsonNode arguments, ToolBody body) throws Exception;
}
