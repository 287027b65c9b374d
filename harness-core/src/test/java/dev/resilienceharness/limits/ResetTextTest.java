package dev.resilienceharness.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ResetTextTest {

    @Test
    void writesDurationsAsOpenAiDoes() {
        assertEquals("0ms", ResetText.of(0));
        assertEquals("20ms", ResetText.of(20_000_000L));
        assertEquals("1ms", ResetText.of(1));
        assertEquals("1s", ResetText.of(1_000_000_000L));
        assertEquals("1.5s", ResetText.of(1_500_000_000L));
        assertEquals("1m0s", ResetText.of(60_000_000_000L));
        assertEquals("6m0s", ResetText.of(360_000_000_000L));
        assertEquals("1m30.25s", ResetText.of(90_250_000_000L));
    }

    @Test
    void readsBackWhatItWrites() {
        for (long ms : new long[] {0, 1, 20, 999, 1000, 1500, 59_999, 60_000, 90_250, 360_000, 3_723_004}) {
            assertEquals(ms * 1_000_000L, ResetText.nanos(ResetText.of(ms * 1_000_000L)), ms + " ms");
        }
        assertEquals(360_500_000_000L, ResetText.nanos("6m0.5s"));
    }
}
