package dev.resilienceharness.scenario;

import dev.resilienceharness.http.HttpAttempt;
import tools.jackson.databind.node.ObjectNode;

/** Records what no cassette answers an SDK with: sends it to the live provider and writes a redacted cassette. */
interface HttpRecorder {

    /** Sends {@code request} for {@code op} as {@code attempt} went out, writes its cassette, and returns it. */
    OpExchange record(String op, ObjectNode request, HttpAttempt attempt);
}
