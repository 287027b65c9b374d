package dev.resilienceharness.clients.langchain4j;

import dev.langchain4j.exception.NonRetriableException;
import dev.resilienceharness.cassette.CassetteMiss;

/**
 * No cassette answers the model's request. A {@link NonRetriableException}, so that langchain4j's retry layer gives
 * up at once instead of sleeping and asking again; its message is the harness's miss message, which names the op,
 * the fingerprint looked for, the nearest recorded request and how to record it. The run records the miss itself and
 * reports it under cassettes, whatever the loop makes of this exception.
 */
public final class CassetteMissException extends NonRetriableException {

    private final transient CassetteMiss miss;

    CassetteMissException(CassetteMiss miss) {
        super(miss.getMessage(), miss);
        this.miss = miss;
    }

    /** The harness's miss. */
    public CassetteMiss miss() {
        return miss;
    }
}
