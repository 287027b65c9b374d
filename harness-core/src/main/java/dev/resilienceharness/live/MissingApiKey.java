package dev.resilienceharness.live;

/** The environment variable that {@code provider.api_key_env} names is not set; nothing has been sent. */
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
