package dev.resilienceharness.scenario;

import dev.resilienceharness.limits.Tokens;
import dev.resilienceharness.trace.CallRecord;

/**
 * A call of a run as the transport enters it in the trace, built by name: {@link #call} says which call it is and
 * when it was made, the named withers say what it was for, who sent it and what came of it, and {@link #toRecord} makes the
 * {@link CallRecord}. What a wither does not set keeps its default: no status, no {@code Retry-After}, not
 * honourable, no first token, sent by the loop, no tokens, no limit, no model.
 */
record CallEntry(int index, String op, int repair, String fault, CallRecord.Result result, int status,
        String retryAfter, boolean honourable, long atNanos, Long firstTokenMs, String sdk, int sdkRetry,
        Tokens tokens, String limit, String model) {

    /** Call {@code index} of the run, made {@code atNanos} into it on the virtual clock. */
    static CallEntry call(int index, long atNanos) {
        return new CallEntry(index, null, 0, null, null, 0, null, false, atNanos, null, null, 0, Tokens.NONE, null,
                null);
    }

    /** Made for {@code op}, as its {@code repair}th repair (0: the op's own request). */
    CallEntry op(String op, int repair) {
        return new CallEntry(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                sdk, sdkRetry, tokens, limit, model);
    }

    /** Under the fault of this kind ({@code none} when the plan struck nothing). */
    CallEntry fault(String fault) {
        return new CallEntry(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                sdk, sdkRetry, tokens, limit, model);
    }

    /** Sent by an SDK ({@code sdk}, {@code null} for the loop) on its {@code sdkRetry}th retry. */
    CallEntry sentBy(String sdk, int sdkRetry) {
        return new CallEntry(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                sdk, sdkRetry, tokens, limit, model);
    }

    /** What came of the call. */
    CallEntry result(CallRecord.Result result) {
        return new CallEntry(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                sdk, sdkRetry, tokens, limit, model);
    }

    /** The HTTP status the call was answered with. */
    CallEntry status(int status) {
        return new CallEntry(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                sdk, sdkRetry, tokens, limit, model);
    }

    /** The {@code Retry-After} a quota rejection carried, and whether the policy may honour it. */
    CallEntry retryAfter(String retryAfter, boolean honourable) {
        return new CallEntry(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                sdk, sdkRetry, tokens, limit, model);
    }

    /** When the first token arrived, in ms after the call, or {@code null}. */
    CallEntry firstTokenMs(Long firstTokenMs) {
        return new CallEntry(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                sdk, sdkRetry, tokens, limit, model);
    }

    /** The tokens an answered call spent. */
    CallEntry tokens(Tokens tokens) {
        return new CallEntry(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                sdk, sdkRetry, tokens, limit, model);
    }

    /** Which limit refused the call ({@link CallRecord#RATE_LIMIT}, {@link CallRecord#INSUFFICIENT_QUOTA}). */
    CallEntry limit(String limit) {
        return new CallEntry(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                sdk, sdkRetry, tokens, limit, model);
    }

    /** The request's {@code model}. */
    CallEntry model(String model) {
        return new CallEntry(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                sdk, sdkRetry, tokens, limit, model);
    }

    /** The trace's record of the call, made by the process in its {@code incarnation}. */
    CallRecord toRecord(int incarnation) {
        return new CallRecord(index, op, repair, fault, result, status, retryAfter, honourable, atNanos, firstTokenMs,
                incarnation, sdk, sdkRetry, tokens, limit, model);
    }
}
