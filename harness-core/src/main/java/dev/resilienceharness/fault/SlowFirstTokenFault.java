package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.transport.Reply;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * {@code {slow_first_token: {elapsed_ms: 3500}}}: the response arrives, its first token {@code elapsedMs} late.
 */
@API(status = INTERNAL, since = "0.1.0")
public record SlowFirstTokenFault(long elapsedMs) implements Fault {

    public SlowFirstTokenFault {
        if (elapsedMs < 0) {
            throw new IllegalArgumentException("elapsed_ms must not be negative, was " + elapsedMs);
        }
    }

    @Override
    public String kind() {
        return "slow_first_token";
    }

    @Override
    public Object toYaml() {
        return Map.of(kind(), Map.of("elapsed_ms", elapsedMs));
    }

    @Override
    public Reply strike(String op, Reply recorded) {
        return recorded.arrivingAfter(elapsedMs);
    }
}
