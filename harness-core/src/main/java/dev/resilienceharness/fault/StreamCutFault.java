package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Map;
import org.apiguardian.api.API;

/** {@code {stream_cut: {after_events: n}}}: the connection drops after the stream's first {@code n} events. */
@API(status = INTERNAL, since = "0.1.0")
public record StreamCutFault(int afterEvents) implements StreamFault {

    public StreamCutFault {
        StreamFault.notNegative("after_events", afterEvents);
    }

    @Override
    public String kind() {
        return "stream_cut";
    }

    @Override
    public Object toYaml() {
        return Map.of(kind(), Map.of("after_events", afterEvents));
    }
}
