package dev.resilienceharness.clients.openai;

import java.time.Duration;

/** Every sentence this module says, in one place so that tests and docs can quote them exactly. */
final class OpenAiMessages {

    private OpenAiMessages() {
    }

    /** The cause of the SDK's I/O timeout, as a socket read would word it. */
    static String timedOut(Duration after) {
        return "timeout: no answer in " + after.toMillis() + " ms";
    }
}
