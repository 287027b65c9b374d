package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sends one request for an op and returns the provider's reply, or throws the failure the provider answered
 * with. A loop under test makes every provider call through this interface.
 */
@FunctionalInterface
@API(status = STABLE, since = "0.1.0")
public interface Transport {

    /**
     * Sends {@code payload} once.
     *
     * @throws QuotaExhausted  the provider rejected the call for quota (HTTP 429)
     * @throws TransientError  the call timed out or the provider answered 5xx
     * @throws BadToolCall     the call returned, but a tool call's JSON arguments break their schema
     * @throws ProcessRecycled the runner process died during the call (an {@link Error}: nothing may catch it)
     */
    Reply call(ObjectNode payload) throws CallFailure;

    /**
     * Sends {@code payload} once, as {@link #call} does, and gives back the failure as a value instead of throwing it:
     * for a loop that branches on what came back. The harness's own transport makes the failure without throwing it
     * at all, which spares a loop that meets thousands of injected faults the cost of unwinding each; any other
     * transport's failure is caught here.
     *
     * @return the reply, or the {@link QuotaExhausted}, {@link TransientError} or {@link BadToolCall} it failed with
     * @throws ProcessRecycled the runner process died during the call (still thrown: nothing may catch it)
     */
    default CallResult send(ObjectNode payload) {
        try {
            return call(payload);
        } catch (CallFailure failure) {
            return failure;
        }
    }
}
