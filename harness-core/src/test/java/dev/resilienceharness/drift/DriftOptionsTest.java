package dev.resilienceharness.drift;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DriftOptionsTest {

    @Test
    void allSendsEveryCassetteWithinTheDefaultBudgetAndWritesNothing() {
        DriftOptions all = DriftOptions.all();
        assertEquals(null, all.sample());
        assertEquals(null, all.scenario());
        assertEquals(DriftOptions.DEFAULT_MAX_REQUESTS, all.maxRequests());
        assertEquals(false, all.update());
    }

    @Test
    void aSampleAndABudgetBelowOneAreRefused() {
        assertEquals("the sample must be at least 1, was 0", assertThrows(IllegalArgumentException.class,
                () -> new DriftOptions(0, null, 5, false, 0)).getMessage());
        assertEquals("maxRequests must be at least 1, was 0", assertThrows(IllegalArgumentException.class,
                () -> new DriftOptions(null, null, 0, false, 0)).getMessage());
    }
}
