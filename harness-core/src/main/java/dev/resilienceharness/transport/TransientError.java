package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** A timeout or a 5xx answer: retryable by default. */
@API(status = STABLE, since = "0.1.0")
public final class TransientError extends CallFailure {

    private final int status;
    private final String streamFault;
    private final int streamEvents;

    private TransientError(String message, int status) {
        this(message, status, null, -1);
    }

    private TransientError(String message, int status, String streamFault, int streamEvents) {
        super(message);
        this.status = status;
        this.streamFault = streamFault;
        this.streamEvents = streamEvents;
    }

    /**
     * A streamed answer broke part-way: cut, stalled, sent a malformed event or an error event.
     *
     * @param fault  the stream fault's kind ({@code stream_cut}, {@code stream_stall}, {@code malformed_event},
     *               {@code stream_error})
     * @param events how many events had arrived
     */
    public static TransientError stream(String fault, int events) {
        return new TransientError(fault + " after " + events + (events == 1 ? " event" : " events"), 0, fault,
                events);
    }

    /** The stream fault that broke the answer part-way, or {@code null} when it was no stream fault. */
    public String streamFault() {
        return streamFault;
    }

    /** How many events of a broken stream had arrived, or -1 when it was no stream fault. */
    public int streamEvents() {
        return streamEvents;
    }

    /** The call timed out. */
    public static TransientError timeout() {
        return new TransientError("timeout", 0);
    }

    /** The provider answered with a 5xx (or another retryable) status. */
    public static TransientError status(int status) {
        return new TransientError("server_error " + status, status);
    }

    /** The HTTP status, or 0 for a timeout. */
    public int status() {
        return status;
    }

    /** A timeout rather than a 5xx or a broken stream. */
    public boolean isTimeout() {
        return status == 0 && streamFault == null;
    }
}
