package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** A provider answer that is not a usable reply: the closed set of failures a loop must plan for. */
@API(status = STABLE, since = "0.1.0")
public abstract sealed class CallFailure extends Exception implements CallResult
        permits QuotaExhausted, TransientError, BadToolCall {

    CallFailure(String message) {
        super(message, null, false, false);
    }
}
