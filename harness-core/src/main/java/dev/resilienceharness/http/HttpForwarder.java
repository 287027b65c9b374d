package dev.resilienceharness.http;

import java.io.IOException;

/**
 * Sends an SDK's attempt on to a live provider, for recording through the SDK: the request as the SDK built it, the
 * credential replaced by the key from the environment.
 */
@FunctionalInterface
public interface HttpForwarder {

    /**
     * Sends {@code attempt} once and returns the provider's answer (its {@code index} is -1: it is no call of a run).
     *
     * @throws IOException the provider cannot be reached
     */
    HttpAnswer.Response send(HttpAttempt attempt) throws IOException;
}
