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

    static String streamingNotReplayed(String path) {
        return AnthropicSdk.LABEL + " asked for a stream (messages().createStreaming) on POST " + path + ", which the"
                + " harness does not replay yet: cassettes hold whole messages, and the stream would come back"
                + " empty. Rehearse this step with messages().create(...)";
    }
}
