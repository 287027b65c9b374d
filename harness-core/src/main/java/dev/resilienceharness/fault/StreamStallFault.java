package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * {@code {stream_stall: {after_events: n, ms: m}}}: after the stream's first {@code n} events nothing arrives for
 * {@code m} milliseconds. A client whose read timeout is shorter gives up there (its own I/O timeout); one that waits
 * longer gets the rest of the stream {@code m} ms late. A call through {@code Transport} has no read timeout to
 * outlast: there the stall is a timeout.
 */
@API(status = INTERNAL, since = "0.1.0")
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
