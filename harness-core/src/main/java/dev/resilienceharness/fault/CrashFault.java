package dev.resilienceharness.fault;

import dev.resilienceharness.transport.ProcessRecycled;
import dev.resilienceharness.transport.Reply;

/** {@code crash}: the runner process is recycled during this call; the request reached the provider. */
public record CrashFault() implements Fault {

    public static final CrashFault INSTANCE = new CrashFault();

    @Override
    public String kind() {
        return "crash";
    }

    @Override
    public Object toYaml() {
        return kind();
    }

    @Override
    public Reply strike(String op, Reply recorded) {
        throw new ProcessRecycled(op);
    }
}
