package dev.resilienceharness.fault;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * {@code {malformed_event: {at: n}}}: the stream's event {@code n} (counted from 0) arrives as data that is not
 * JSON, cut off mid-object; the events before it arrive as recorded.
 */
@API(status = INTERNAL, since = "0.1.0")
public record MalformedEventFault(int at) implements StreamFault {

    public MalformedEventFault {
        StreamFault.notNegative("at", at);
    }

    @Override
    public String kind() {
        return "malformed_event";
    }

    @Override
    public int afterEvents() {
        return at;
    }

    @Override
    public Object toYaml() {
        return Map.of(kind(), Map.of("at", at));
    }
}
