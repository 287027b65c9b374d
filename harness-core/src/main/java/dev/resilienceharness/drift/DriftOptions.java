package dev.resilienceharness.drift;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * Which cassettes a drift check sends, and what it may do.
 *
 * @param sample      how many cassettes to send, picked at random with {@code seed}; {@code null} for all
 * @param scenario    only the cassettes of this scenario's ops, or {@code null} for every cassette
 * @param maxRequests at most this many requests are sent
 * @param update      whether a drifted cassette is re-recorded from its live answer
 * @param seed        picks the sample, so the same seed sends the same cassettes
 */
@API(status = INTERNAL, since = "0.1.0")
public record DriftOptions(Integer sample, String scenario, int maxRequests, boolean update, long seed) {

    /** The request budget unless set. */
    public static final int DEFAULT_MAX_REQUESTS = 50;

    public DriftOptions {
        if (sample != null && sample < 1) {
            throw new IllegalArgumentException("the sample must be at least 1, was " + sample);
        }
        if (maxRequests < 1) {
            throw new IllegalArgumentException("maxRequests must be at least 1, was " + maxRequests);
        }
    }

    /** Every cassette, within the default budget, nothing rewritten. */
    public static DriftOptions all() {
        return new DriftOptions(null, null, DEFAULT_MAX_REQUESTS, false, 0);
    }
}
