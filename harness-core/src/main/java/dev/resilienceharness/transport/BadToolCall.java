package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** The response arrived, but a tool call's JSON arguments did not parse or did not fit their schema. */
@API(status = STABLE, since = "0.1.0")
public final class BadToolCall extends CallFailure {

    public BadToolCall(String detail) {
        super(detail);
    }
}
