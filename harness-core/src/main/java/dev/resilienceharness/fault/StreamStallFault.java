package dev.resilienceharness.fault;

import dev.resilienceharness.transport.Reply;
import dev.resilienceharness.transport.TransientError;
import java.util.Map;

/**
 * {@code {stream_stall: {after_events: n, ms: m}}}: after the stream's first {@code n} events nothing arrives for
 * {@code m} milliseconds. A client whose read timeout is shorter gives up there (its own I/O timeout); one that waits
 * longer gets the rest of the stream {@code m} ms late.
 */
public record StreamStallFault(int afterEvents, long ms) implements StreamFault {

    public StreamStallFault {
        if (afterEvents < 0) {
            throw new IllegalArgumentException("after_events must not be negative, was " + afterEvents);
        }
        if (ms < 0) {
            throw new IllegalArgumentException("ms must not be negative, was " + ms);
        }
    }

    @Override
    public String kind() {
        return "stream_stall";
    }

    @Override
    public Object toYaml() {
        Map<String, Object> settings = new java.util.LinkedHashMap<>();
        settings.put("after_events", afterEvents);
        settings.put("ms", ms);
        return Map.of(kind(), settings);
    }

    /** A call through {@code Transport} has no read timeout to outlast: the stall is a timeout there. */
    @Override
    public Reply strike(String op, Reply recorded) throws TransientError {
        throw TransientError.stream(kind(), afterEvents);
    }
}
