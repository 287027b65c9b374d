package dev.resilienceharness.trace;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * One transport call made during a scenario run, as the invariants and the report's timeline see it.
 *
 * @param index        0-based position in the run
 * @param op           the op the call was for
 * @param repair       the repair number ({@code "repair": n} in the payload), 0 for a plain call
 * @param fault        the fault kind the call met ({@code none} when it was answered as recorded)
 * @param result       how the call ended for the loop
 * @param status       the HTTP status of a server error, else 0
 * @param retryAfter   the {@code Retry-After} text of a quota rejection, else {@code null}
 * @param honourable   a quota rejection whose delay the policy may wait for ({@code retry_once}, within
 *                     {@code max_retry_after})
 * @param atNanos      virtual time of the call, nanoseconds after the run's start
 * @param firstTokenMs first-token latency of an answered call, else {@code null}
 * @param incarnation  which process incarnation made it: 0, then 1 after the first restart, ...
 * @param sdk          the SDK that sent it over HTTP (for example {@code openai-java 4.105.0}), or {@code null} for a
 *                     call through {@code Transport}
 * @param sdkRetry     0 when the loop itself made the call; n when it was the SDK's own n-th retry of it
 * @param tokens       the tokens an answered call spent ({@code usage}, see {@code Tokens}), else 0
 * @param limit        which {@code provider_limits} refused the call: {@link #RATE_LIMIT} or
 *                     {@link #INSUFFICIENT_QUOTA}; {@code null} when the limits let it through
 * @param model        the request's {@code model}, or {@code null} when it names none
 */
@API(status = INTERNAL, since = "0.1.0")
public record CallRecord(int index, String op, int repair, String fault, Result result, int status,
        String retryAfter, boolean honourable, long atNanos, Long firstTokenMs, int incarnation, String sdk,
        int sdkRetry, dev.resilienceharness.limits.Tokens tokens, String limit, String model) {

    /** {@link #limit} of a call a full window refused. */
    public static final String RATE_LIMIT = "rate_limit";
    /** {@link #limit} of a call refused because the run's token quota was spent. */
    public static final String INSUFFICIENT_QUOTA = "insufficient_quota";

    public CallRecord {
        java.util.Objects.requireNonNull(tokens, "tokens");
    }

    /** A call no limit touched and whose tokens were not counted. */
    public CallRecord(int index, String op, int repair, String fault, Result result, int status, String retryAfter,
            boolean honourable, long atNanos, Long firstTokenMs, int incarnation, String sdk, int sdkRetry) {
        this(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs, incarnation,
                sdk, sdkRetry, dev.resilienceharness.limits.Tokens.NONE, null, null);
    }

    /** A call the loop made through {@code Transport}. */
    public CallRecord(int index, String op, int repair, String fault, Result result, int status, String retryAfter,
            boolean honourable, long atNanos, Long firstTokenMs, int incarnation) {
        this(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs, incarnation,
                null, 0);
    }

    /** Whether an SDK's own retry layer made this call, not the loop. */
    public boolean bySdk() {
        return sdkRetry > 0;
    }

    /** How a call ended for the loop. */
    public enum Result {
        OK, TRANSIENT, QUOTA, SCHEMA, CRASH
    }
}
