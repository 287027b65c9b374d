package dev.resilienceharness.clients.langchain4j;

import java.time.Duration;

/** Every message the adapter writes, in one place. */
final class Langchain4jMessages {

    private Langchain4jMessages() {
    }

    static String timedOut(Duration after) {
        return "request timed out: no answer within the read timeout of " + after.toMillis() + " ms (a timeout"
                + " fault of the scenario, on the virtual clock)";
    }
}
