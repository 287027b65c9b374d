package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.TransientError;
import java.util.Map;
import org.apiguardian.api.API;

/** {@code {server_error: {status: 503}}}: the provider answers with a 5xx, a transient failure. */
@API(status = INTERNAL, since = "0.1.0")
public record ServerErrorFault(int status) implements Fault {

    /** The status a bare {@code server_error} stands for. */
    public static final int DEFAULT_STATUS = 503;

    public ServerErrorFault {
        if (status < 500 || status > 599) {
            throw new IllegalArgumentException("server_error status must be 500-599, was " + status);
        }
    }

    @Override
    public String kind() {
        return "server_error";
    }

    @Override
    public Object toYaml() {
        return Map.of(kind(), Map.of("status", status));
    }

    @Override
    public TransientError failure(String op) {
        return TransientError.status(status);
    }
}
