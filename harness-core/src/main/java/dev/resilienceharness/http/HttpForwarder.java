package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import org.apiguardian.api.API;

/**
 * Sends an SDK's attempt on to a live provider, for recording through the SDK: the request as the SDK built it, the
 * credential replaced by the key from the environment.
 */
@FunctionalInterface
@API(status = INTERNAL, since = "0.1.0")
public interface HttpForwarder {

    /**
     * Sends {@code attempt} once and returns the provider's answer (its {@code index} is -1: it is no call of a run).
     *
     * @throws IOException the provider cannot be reached
     */
    HttpAnswer.Response send(HttpAttempt attempt) throws IOException;
}
