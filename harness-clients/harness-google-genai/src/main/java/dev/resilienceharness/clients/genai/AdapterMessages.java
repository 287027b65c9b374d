package dev.resilienceharness.clients.genai;

import java.time.Duration;

/** Every sentence this module says, in one place so that tests and docs can quote them exactly. */
final class AdapterMessages {

    private AdapterMessages() {
    }

    static String badAttempts(int value) {
        return "retry attempts must be at least 1 (1: the SDK does not retry), was " + value;
    }

    /** The SDK's I/O timeout, as a socket read would word it. */
    static String timedOut(Duration after) {
        return "timeout: no answer within " + after.toMillis() + " ms";
    }

    /** When the SDK's client cannot be bound: a google-genai whose internals moved. */
    static String cannotBind(String sdk, Exception cause) {
        return "cannot bind " + sdk + "'s HTTP client to the run (" + cause + "); this adapter is built for"
                + " google-genai 2.x";
    }
}
