package dev.resilienceharness.fault;

import dev.resilienceharness.transport.TransientError;

/** {@code timeout}: the call times out, a transient failure. */
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
