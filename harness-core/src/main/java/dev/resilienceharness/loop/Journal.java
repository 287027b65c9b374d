package dev.resilienceharness.loop;

import java.util.List;

/**
 * The record of finished ops that survives a process restart (SPEC section 8): append-only, one outcome per
 * finished op. A resumed loop reads {@link #completed()} and re-calls none of them.
 */
public interface Journal {

    /** The outcomes recorded so far, in order. */
    List<Outcome> completed();

    /** Appends one finished op's outcome durably before returning. */
    void record(Outcome outcome);
}
