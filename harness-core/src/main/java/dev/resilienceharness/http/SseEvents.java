package dev.resilienceharness.http;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.resilienceharness.cassette.StreamEvent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;

/**
 * Splits a server-sent event stream into its events as they arrive (the {@code data:} lines up to a blank line, with
 * the {@code event:} name when there is one; comments and {@code id:}/{@code retry:} lines dropped), each stamped
 * with the time its blank line was read. Reading ends at the end of the stream; a last event without its blank line
 * counts.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class SseEvents {

    /** Larger than any event a provider sends; a longer one is refused rather than held. */
    static final int MAX_EVENT_CHARS = 4 * 1024 * 1024;

    private SseEvents() {
    }

    /**
     * The events of {@code body}, in order.
     *
     * @param sinceRequestMs the time since the request, in milliseconds, read as each event completes
     * @throws IOException when reading fails or an event is larger than {@value #MAX_EVENT_CHARS} characters
     */
    public static List<StreamEvent> read(InputStream body, LongSupplier sinceRequestMs) throws IOException {
        List<StreamEvent> events = new ArrayList<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        StringBuilder data = new StringBuilder();
        boolean pending = false;
        String name = null;
        long last = 0;
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                if (pending) {
                    last = Math.max(last, sinceRequestMs.getAsLong());
                    events.add(new StreamEvent(last, name, data.toString()));
                    data.setLength(0);
                    pending = false;
                    name = null;
                }
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if ("event".equals(field)) {
                name = value;
            } else if ("data".equals(field)) {
                if (pending) {
                    data.append('\n');
                }
                if (data.length() + value.length() > MAX_EVENT_CHARS) {
                    throw new IOException("a stream event is larger than " + MAX_EVENT_CHARS + " characters");
                }
                data.append(value);
                pending = true;
            }
        }
        if (pending) {
            events.add(new StreamEvent(Math.max(last, sinceRequestMs.getAsLong()), name, data.toString()));
        }
        return events;
    }
}
