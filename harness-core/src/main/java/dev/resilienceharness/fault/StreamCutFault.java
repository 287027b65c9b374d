package dev.resilienceharness.fault;

import dev.resilienceharness.transport.TransientError;
import dev.resilienceharness.transport.Reply;
import java.util.Map;

/** {@code {stream_cut: {after_events: n}}}: the connection drops after the stream's first {@code n} events. */
public record StreamCutFault(int afterEvents) implements StreamFault {

    public StreamCutFault {
        if (afterEvents < 0) {
            throw new IllegalArgumentException("after_events must not be negative, was " + afterEvents);
        }
    }

    @Override
    public String kind() {
        return "stream_cut";
    }

    @Override
    public Object toYaml() {
        return Map.of(kind(), Map.of("after_events", afterEvents));
    }

    @Override
    public Reply strike(String op, Reply recorded) throws TransientError {
        throw TransientError.stream(kind(), afterEvents);
    }
}
