package dev.resilienceharness.transport;

import tools.jackson.databind.node.ObjectNode;

/**
 * Sends one request for an op and returns the provider's reply, or throws the failure the provider answered
 * with. A loop under test makes every provider call through this interface.
 */
@FunctionalInterface
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
}
