package dev.resilienceharness.clients.bedrock;

import java.time.Duration;

/** Every sentence this module says, in one place so that tests and docs can quote them exactly. */
final class AdapterMessages {

    private AdapterMessages() {
    }

    /** The SDK's I/O timeout, as a socket read would word it. */
    static String timedOut(Duration after) {
        return "timeout: no answer within " + after.toMillis() + " ms";
    }

    /** When the SDK's backoff cannot be held to one delay: a bedrockruntime whose internals moved. */
    static String cannotHoldJitter(Exception cause) {
        return "cannot hold the AWS SDK's retry jitter at its middle (" + cause + "); this adapter is built for"
                + " bedrockruntime 2.59.x";
    }
}
