package dev.resilienceharness.live;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** The environment variable that {@code provider.api_key_env} names is not set; nothing has been sent. */
@API(status = INTERNAL, since = "0.1.0")
public final class MissingApiKey extends Exception {

    private final String variable;

    MissingApiKey(String variable) {
        super(LiveMessages.missingKey(variable), null, false, false);
        this.variable = variable;
    }

    /** The name of the environment variable to set. */
    public String variable() {
        return variable;
    }
}
