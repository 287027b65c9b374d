package dev.resilienceharness.transport;

/** A timeout or a 5xx answer: retryable by default. */
public final class TransientError extends CallFailure {

    private final int status;

    private TransientError(String message, int status) {
        super(message);
        this.status = status;
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

    public boolean isTimeout() {
        return status == 0;
    }
}
