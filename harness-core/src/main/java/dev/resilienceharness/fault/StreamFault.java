package dev.resilienceharness.fault;

/**
 * A fault only a streamed answer can meet: it strikes part-way through the recorded events. On a call through
 * {@code Transport}, which gets the whole answer at once, a cut, a stall, a malformed event and an error event are a
 * {@link dev.resilienceharness.transport.TransientError} naming how many events arrived first, and a truncated
 * tool call is a {@link dev.resilienceharness.transport.BadToolCall}; over HTTP the stream itself breaks there.
 */
public sealed interface StreamFault extends Fault
        permits StreamCutFault, StreamStallFault, MalformedEventFault, StreamErrorFault, TruncatedToolCallFault {

    /**
     * How many events arrive before the fault strikes: the events before a cut, a stall or an error event, the index
     * of the malformed one; -1 for a truncated tool call, which changes the events rather than stopping them.
     */
    int afterEvents();
}
