package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.CallFailure;
import dev.resilienceharness.transport.TransientError;
import org.apiguardian.api.API;

/**
 * A fault only a streamed answer can meet: it strikes part-way through the recorded events. On a call through
 * {@code Transport}, which gets the whole answer at once, a cut, a stall, a malformed event and an error event are a
 * {@link dev.resilienceharness.transport.TransientError} naming how many events arrived first, and a truncated
 * tool call is a {@link dev.resilienceharness.transport.BadToolCall}; over HTTP the stream itself breaks there.
 */
@API(status = INTERNAL, since = "0.1.0")
public sealed interface StreamFault extends Fault
        permits StreamCutFault, StreamStallFault, MalformedEventFault, StreamErrorFault, TruncatedToolCallFault {

    /**
     * How many events arrive before the fault strikes: the events before a cut, a stall or an error event, the index
     * of the malformed one; -1 for a truncated tool call, which changes the events rather than stopping them.
     */
    int afterEvents();

    /**
     * On a call through {@code Transport}, which gets the whole answer at once, the stream breaking: a
     * {@link TransientError} naming how many events arrived first. A call through HTTP meets the stream itself instead.
     */
    @Override
    default CallFailure failure(String op) {
        return TransientError.stream(kind(), afterEvents());
    }

    /** {@code value} of the setting {@code key}, which must not be negative. */
    static long notNegative(String key, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(key + " must not be negative, was " + value);
        }
        return value;
    }
}
