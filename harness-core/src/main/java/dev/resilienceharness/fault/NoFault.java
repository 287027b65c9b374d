package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.Reply;
import org.apiguardian.api.API;

/** {@code none}: the call is answered as recorded. */
@API(status = INTERNAL, since = "0.1.0")
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
