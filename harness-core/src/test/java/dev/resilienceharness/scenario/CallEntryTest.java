package dev.resilienceharness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.resilienceharness.limits.Tokens;
import dev.resilienceharness.trace.CallRecord;
import org.junit.jupiter.api.Test;

class CallEntryTest {

    @Test
    void whatNoWitherSetsKeepsTheDefaultsOfACallTheLoopMade() {
        CallRecord r = CallEntry.call(3, 1_500_000L).op("plan", 0).fault("timeout")
                .result(CallRecord.Result.TRANSIENT).toRecord(2);
        assertEquals(new CallRecord(3, "plan", 0, "timeout", CallRecord.Result.TRANSIENT, 0, null, false, 1_500_000L,
                null, 2), r);
        assertEquals(Tokens.NONE, r.tokens());
        assertEquals(null, r.model());
        assertEquals(null, r.limit());
    }

    @Test
    void eachWitherSetsItsOwnFieldAndNoOther() {
        Tokens spent = new Tokens(12, 30);
        CallRecord r = CallEntry.call(7, 42L).op("review", 2).fault("quota").sentBy("acme-sdk 1.0", 1)
                .result(CallRecord.Result.QUOTA).status(429).retryAfter("1.5", true).firstTokenMs(250L)
                .tokens(spent).limit(CallRecord.RATE_LIMIT).model("m").toRecord(4);
        assertEquals(new CallRecord(7, "review", 2, "quota", CallRecord.Result.QUOTA, 429, "1.5", true, 42L, 250L, 4,
                "acme-sdk 1.0", 1, spent, CallRecord.RATE_LIMIT, "m"), r);
    }

    @Test
    void aWitherReturnsANewEntryAndLeavesTheOneItCameFrom() {
        CallEntry call = CallEntry.call(0, 0L).op("plan", 0).fault("none");
        CallEntry ok = call.result(CallRecord.Result.OK).model("m");
        assertEquals(null, call.result());
        assertEquals(null, call.model());
        assertEquals(CallRecord.Result.OK, ok.result());
        assertEquals("m", ok.model());
    }
}
