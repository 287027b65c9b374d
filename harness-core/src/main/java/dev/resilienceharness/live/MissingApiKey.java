package dev.resilienceharness.live;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import org.apiguardian.api.API;

/** The environment variable that {@code provider.api_key_env} names is not set; nothing has been sent. */
@API(status = INTERNAL, since = "0.1.0")
public final class MissingApiKey extends Exception {

    private final String variable;

    MissingApiKey(String variable) {
        super(LiveMessages.missingKey(variable), null, false, false);
        this.variable = variable;
    }

    private MissingApiKey(String variable, String configFile) {
        super(LiveMessages.missingKey(variable, configFile), null, false, false);
        this.variable = variable;
    }

    /** The same missing key, its message naming {@code configFile} (such as {@code mcp.yaml}) as where it is named. */
    public MissingApiKey in(Path configFile) {
        Path name = configFile == null ? null : configFile.getFileName();
        return name == null ? this : new MissingApiKey(variable, name.toString());
    }

    /** The name of the environment variable to set. */
    public String variable() {
        return variable;
    }
}
