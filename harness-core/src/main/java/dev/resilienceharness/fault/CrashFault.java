package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.ProcessRecycled;
import dev.resilienceharness.transport.Reply;
import org.apiguardian.api.API;

/** {@code crash}: the runner process is recycled during this call; the request reached the provider. */
@API(status = INTERNAL, since = "0.1.0")
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
