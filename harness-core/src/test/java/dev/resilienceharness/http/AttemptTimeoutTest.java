package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AttemptTimeoutTest {

    private static final Duration TWO = Duration.ofSeconds(2);
    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void anAttemptWaitsForTheShorterOfItsReadAndWholeRequestTimeouts() {
        assertEquals(TWO, AttemptTimeout.of(TWO, MINUTE));
        assertEquals(TWO, AttemptTimeout.of(MINUTE, TWO));
        assertEquals(TWO, AttemptTimeout.of(TWO, TWO));
    }

    @Test
    void aMissingOrZeroTimeoutIsNone() {
        assertEquals(TWO, AttemptTimeout.of(null, TWO));
        assertEquals(TWO, AttemptTimeout.of(Duration.ZERO, TWO));
        assertEquals(TWO, AttemptTimeout.of(TWO, null));
        assertEquals(TWO, AttemptTimeout.of(TWO, Duration.ZERO));
        assertNull(AttemptTimeout.of(null, null));
        assertNull(AttemptTimeout.of(Duration.ZERO, Duration.ZERO));
    }

    @Test
    void aTimeoutCostsTheSdksTimeoutOnTheClockOrSixtySecondsWhenItStatesNone() {
        assertEquals(TWO, AttemptTimeout.onClock(TWO));
        assertEquals(Duration.ofSeconds(60), AttemptTimeout.onClock(null));
        assertEquals(AttemptTimeout.UNSTATED, AttemptTimeout.onClock(Duration.ZERO));
    }

    @Test
    void onlyWhatComesAfterAStatedTimeoutIsTooLate() {
        assertTrue(AttemptTimeout.runsOut(TWO, Duration.ofMillis(2001)));
        assertFalse(AttemptTimeout.runsOut(TWO, TWO), "an answer at the timeout is in time");
        assertFalse(AttemptTimeout.runsOut(TWO, Duration.ofMillis(1999)));
        assertFalse(AttemptTimeout.runsOut(null, Duration.ofDays(1)), "no timeout never runs out");
        assertFalse(AttemptTimeout.runsOut(Duration.ZERO, Duration.ofDays(1)), "nor does a zero one");
    }
}
