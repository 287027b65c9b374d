package dev.resilienceharness.fault;

import dev.resilienceharness.transport.Reply;

/** {@code none}: the call is answered as recorded. */
public record NoFault() implements Fault {

    public static final NoFault INSTANCE = new NoFault();

    @Override
    public String kind() {
        return "none";
    }

    @Override
    public Object toYaml() {
        return kind();
    }

    @Override
    public Reply strike(String op, Reply recorded) {
        return recorded;
    }
}
