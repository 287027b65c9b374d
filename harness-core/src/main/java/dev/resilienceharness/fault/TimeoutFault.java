package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.TransientError;
import org.apiguardian.api.API;

/** {@code timeout}: the call times out, a transient failure. */
@API(status = INTERNAL, since = "0.1.0")
public record TimeoutFault() implements Fault {

    public static final TimeoutFault INSTANCE = new TimeoutFault();

    @Override
    public String kind() {
        return "timeout";
    }

    @Override
    public Object toYaml() {
        return kind();
    }

    @Override
    public TransientError failure(String op) {
        return TransientError.timeout();
    }
}
