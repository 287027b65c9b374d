package dev.resilienceharness.transport;

/** The response arrived, but a tool call's JSON arguments did not parse or did not fit their schema. */
public final class BadToolCall extends CallFailure {

    public BadToolCall(String detail) {
        super(detail);
    }
}
