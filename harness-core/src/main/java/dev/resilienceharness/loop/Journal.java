package dev.resilienceharness.loop;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import org.apiguardian.api.API;

/**
 * The record of finished ops that survives a process restart (invariants/partial_work.md): append-only, one outcome per
 * finished op. A resumed loop reads {@link #completed()} and re-calls none of them.
 */
@API(status = STABLE, since = "0.1.0")
public interface Journal {

    /** The outcomes recorded so far, in order. */
    List<Outcome> completed();

    /** Appends one finished op's outcome durably before returning. */
    void record(Outcome outcome);

    /**
     * Notes the retry state of the op in flight (attempts made, retries and repairs used), so that a restarted
     * loop carries on with it "as if uninterrupted" instead of spending the op's allowance twice. Optional: the
     * default keeps nothing.
     */
    default void checkpoint(String op, Progress progress) {
    }

    /** The last progress noted for {@code op} since its outcome was recorded, or {@link Progress#NONE}. */
    default Progress progress(String op) {
        return Progress.NONE;
    }

    /**
     * An op's retry state.
     *
     * @param attempts          calls made for the op
     * @param transientFailures timeouts and 5xx answers met
     * @param repairs           repair calls made
     * @param quotaRetried      whether the op's one Retry-After retry is spent
     */
    record Progress(int attempts, int transientFailures, int repairs, boolean quotaRetried) {
        public static final Progress NONE = new Progress(0, 0, 0, false);
    }
}
