package dev.resilienceharness.cassette;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One server-sent event of a recorded stream, as it arrived.
 *
 * @param atMs  milliseconds after the request was sent
 * @param event the SSE {@code event:} name (Anthropic's {@code content_block_delta}), or {@code null} when the event
 *              had none (OpenAI's chunks)
 * @param data  the event's {@code data:} payload, its lines joined with {@code \n}: compact JSON, or {@code [DONE]}
 */
@API(status = INTERNAL, since = "0.1.0")
public record StreamEvent(long atMs, String event, String data) {

    public StreamEvent {
        if (atMs < 0) {
            throw new IllegalArgumentException("at_ms cannot be negative: " + atMs);
        }
        Objects.requireNonNull(data, "data");
    }

    /** An event without an {@code event:} name. */
    public StreamEvent(long atMs, String data) {
        this(atMs, null, data);
    }

    /** This event arriving {@code ms} later. */
    public StreamEvent later(long ms) {
        return new StreamEvent(atMs + ms, event, data);
    }

    /** This event with another payload, at the same time. */
    public StreamEvent withData(String newData) {
        return new StreamEvent(atMs, event, newData);
    }

    /** The event as it goes over the wire: an optional {@code event:} line, one {@code data:} line per line, a blank. */
    public String wire() {
        StringBuilder sb = new StringBuilder(data.length() + 16);
        if (event != null) {
            sb.append("event: ").append(event).append('\n');
        }
        for (String line : data.split("\n", -1)) {
            sb.append("data: ").append(line).append('\n');
        }
        return sb.append('\n').toString();
    }
}
