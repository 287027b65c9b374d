package dev.resilienceharness.live;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * The provider answered with a status that is neither a quota rejection nor a transient error (a 400, 401, 404,
 * ...), or with a 200 whose body is not a chat completion. Names the op, the status and a short excerpt of the
 * body; never a header, so never the key.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class UnexpectedStatus extends Exception {

    private final String op;
    private final int status;
    private final String excerpt;

    private UnexpectedStatus(String message, String op, int status, String excerpt) {
        super(message, null, false, false);
        this.op = op;
        this.status = status;
        this.excerpt = excerpt;
    }

    /** An answer with an unmapped status; {@code body} is quoted in short. */
    public static UnexpectedStatus of(String op, int status, String body) {
        String excerpt = LiveMessages.excerpt(body);
        return new UnexpectedStatus(LiveMessages.unexpectedStatus(op, status, excerpt), op, status, excerpt);
    }

    /** A 200 whose body cannot be used, saying why. */
    static UnexpectedStatus unusable(String op, String what, String body) {
        String excerpt = LiveMessages.excerpt(body);
        return new UnexpectedStatus(LiveMessages.unusableAnswer(op, what, excerpt), op, 200, excerpt);
    }

    /** A request for an API this provider call does not send. */
    static UnexpectedStatus unsupported(String op, dev.resilienceharness.http.ApiShape shape) {
        return new UnexpectedStatus("op '" + op + "': this provider call sends Chat Completions only, not "
                + shape.path(), op, 501, "");
    }

    public String op() {
        return op;
    }

    public int status() {
        return status;
    }

    /** At most {@value LiveMessages#EXCERPT_CHARS} characters of the body, on one line. */
    public String excerpt() {
        return excerpt;
    }
}
