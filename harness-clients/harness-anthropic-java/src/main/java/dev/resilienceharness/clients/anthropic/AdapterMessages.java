package dev.resilienceharness.clients.anthropic;

import java.time.Duration;

/** Every sentence this module says, in one place so that tests and docs can quote them exactly. */
final class AdapterMessages {

    private AdapterMessages() {
    }

    static String negativeMaxRetries(int value) {
        return "maxRetries must not be negative, was " + value;
    }

    /**
     * Why a stream through anthropic-java's Bedrock backend is refused, and what to rehearse instead.
     *
     * @param path the path the backend prepared, {@code model/{modelId}/invoke-with-response-stream}
     */
    static String bedrockStreamNotRehearsed(String path) {
        return "streaming through anthropic-java's Bedrock backend (POST " + path + ") is not rehearsed yet: Bedrock"
                + " answers it in the AWS event-stream framing, which the harness does not write. Rehearse this"
                + " loop's non-streaming calls (messages().create) on the Bedrock backend, and its streaming on"
                + " Anthropic's API or the Vertex backend";
    }

    /** The cause of the SDK's I/O timeout, as a socket read would word it. */
    static String timedOut(Duration after) {
        return "timeout: no answer within " + after.toMillis() + " ms";
    }
}
