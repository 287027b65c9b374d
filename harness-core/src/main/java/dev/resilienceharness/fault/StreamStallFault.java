package dev.resilienceharness.fault;

import java.util.Map;

/**
 * {@code {stream_stall: {after_events: n, ms: m}}}: after the stream's first {@code n} events nothing arrives for
 * {@code m} milliseconds. A client whose read timeout is shorter gives up there (its own I/O timeout); one that waits
 * longer gets the rest of the stream {@code m} ms late. A call through {@code Transport} has no read timeout to
 * outlast: there the stall is a timeout.
 */
public record StreamStallFault(int afterEvents, long ms) implements StreamFault {

    public StreamStallFault {
        StreamFault.notNegative("after_events", afterEvents);
        StreamFault.notNegative("ms", ms);
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
}
