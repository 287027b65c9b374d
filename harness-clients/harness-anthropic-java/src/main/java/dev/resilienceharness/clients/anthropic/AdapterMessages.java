package dev.resilienceharness.clients.anthropic;

import java.time.Duration;

/** Every sentence this module says, in one place so that tests and docs can quote them exactly. */
final class AdapterMessages {

    private AdapterMessages() {
    }

    static String negativeMaxRetries(int value) {
        return "maxRetries must not be negative, was " + value;
    }

    /** The cause of the SDK's I/O timeout, as a socket read would word it. */
    static String timedOut(Duration after) {
        return "timeout: no answer within " + after.toMillis() + " ms";
    }
}
