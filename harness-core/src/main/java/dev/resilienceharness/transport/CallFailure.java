package dev.resilienceharness.transport;

/** A provider answer that is not a usable reply: the closed set of failures a loop must plan for. */
public abstract sealed class CallFailure extends Exception implements CallResult
        permits QuotaExhausted, TransientError, BadToolCall {

    CallFailure(String message) {
        super(message, null, false, false);
    }
}
