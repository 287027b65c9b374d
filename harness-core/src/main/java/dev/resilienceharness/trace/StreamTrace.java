package dev.resilienceharness.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * How one streamed answer of a run arrived, as the report's timeline and the duplicated-text check see it.
 *
 * @param call        the index of the call that streamed it
 * @param op          the op the call was for
 * @param fault       the fault kind the call met
 * @param eventNanos  virtual time of every event that arrived, nanoseconds after the run's start
 * @param sent        how many events the stream had to send
 * @param end         how it ended: {@code done}; {@code cut}, {@code stalled}, {@code error_event},
 *                    {@code malformed_event} where the fault broke it; {@code unread} when the reader stopped first
 * @param endNanos    virtual time of the cut, the stall's read timeout or the broken event, else {@code null}
 * @param partialText the text that had arrived when the stream broke (empty when it did not break)
 * @param fullText    the text the whole recorded answer carries
 */
@API(status = INTERNAL, since = "0.1.0")
public record StreamTrace(int call, String op, String fault, List<Long> eventNanos, int sent, String end,
        Long endNanos, String partialText, String fullText) {

    public StreamTrace {
        eventNanos = List.copyOf(eventNanos);
    }

    /** How many events arrived. */
    public int arrived() {
        return eventNanos.size();
    }

    /** Whether a fault broke the stream part-way, so that whatever text had arrived was partial. */
    public boolean broken() {
        return switch (end) {
            case "cut", "stalled", "error_event", "malformed_event" -> true;
            default -> false;
        };
    }
}
