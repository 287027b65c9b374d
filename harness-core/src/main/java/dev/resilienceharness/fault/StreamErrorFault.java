package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * {@code {stream_error: {after_events: n}}}: after the stream's first {@code n} events the provider sends an
 * {@code error} event (an overloaded or server error in the API's own shape) and ends the stream.
 */
@API(status = INTERNAL, since = "0.1.0")
public record StreamErrorFault(int afterEvents) implements StreamFault {

    public StreamErrorFault {
        StreamFault.notNegative("after_events", afterEvents);
    }

    @Override
    public String kind() {
        return "stream_error";
    }

    @Override
    public Object toYaml() {
        return Map.of(kind(), Map.of("after_events", afterEvents));
    }
}
