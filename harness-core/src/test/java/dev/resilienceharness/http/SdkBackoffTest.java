package dev.resilienceharness.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

class SdkBackoffTest {

    private static final SdkBackoff STAINLESS = SdkBackoff.STAINLESS;

    @Test
    void theNominalWaitDoublesFromHalfASecondUpToEightSeconds() {
        assertEquals(Duration.ofMillis(500), STAINLESS.nominal(1));
        assertEquals(Duration.ofSeconds(1), STAINLESS.nominal(2));
        assertEquals(Duration.ofSeconds(2), STAINLESS.nominal(3));
        assertEquals(Duration.ofSeconds(4), STAINLESS.nominal(4));
        assertEquals(Duration.ofSeconds(8), STAINLESS.nominal(5));
        assertEquals(Duration.ofSeconds(8), STAINLESS.nominal(40));
    }

    /** What openai-java's and anthropic-java's RetryingHttpClient compute, jitter and all. */
    private static Duration jittered(int retry) {
        double seconds = Math.min(0.5 * Math.pow(2.0, retry - 1), 8.0);
        double jitter = 1.0 - 0.25 * ThreadLocalRandom.current().nextDouble();
        return Duration.ofNanos((long) (1_000_000_000L * seconds * jitter));
    }

    @Test
    void everyJitteredBackoffOfTheSdkBecomesItsNominalValue() {
        for (int retry = 1; retry <= 6; retry++) {
            for (int i = 0; i < 1000; i++) {
                assertEquals(STAINLESS.nominal(retry), STAINLESS.reproducible(retry, jittered(retry)));
            }
        }
        assertEquals(Duration.ofMillis(500), STAINLESS.reproducible(1, Duration.ofMillis(375)), "the lowest jitter");
    }

    @Test
    void aWaitOutsideTheFormulaIsWaitedAsAsked() {
        assertEquals(Duration.ofMillis(374), STAINLESS.reproducible(1, Duration.ofMillis(374)));
        assertEquals(Duration.ofMillis(501), STAINLESS.reproducible(1, Duration.ofMillis(501)));
        assertEquals(Duration.ofSeconds(8), STAINLESS.reproducible(1, Duration.ofSeconds(8)));
        assertEquals(Duration.ZERO, STAINLESS.reproducible(1, Duration.ZERO));
    }

    @Test
    void aBackoffThatCannotBeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SdkBackoff(Duration.ZERO, Duration.ofSeconds(1), 0.1));
        assertThrows(IllegalArgumentException.class, () -> new SdkBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1),
                0.1));
        assertThrows(IllegalArgumentException.class, () -> new SdkBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1),
                1.0));
    }
}
