package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * The runner process was recycled during a call: the request reached the provider and the answer is lost.
 *
 * <p>It is an {@link Error} on purpose: a process that dies cannot catch its own death, so a loop's
 * {@code catch (Exception e)} must not swallow it. The harness catches it, discards the loop instance and
 * starts a fresh one on the same journal.
 */
@API(status = STABLE, since = "0.1.0")
public final class ProcessRecycled extends Error {

    public ProcessRecycled(String op) {
        super("runner process recycled during a call for op '" + op + "'", null, false, false);
    }
}
