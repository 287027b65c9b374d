package dev.resilienceharness.fault;

import java.util.Map;

/**
 * {@code {malformed_event: {at: n}}}: the stream's event {@code n} (counted from 0) arrives as data that is not
 * JSON, cut off mid-object; the events before it arrive as recorded.
 */
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
