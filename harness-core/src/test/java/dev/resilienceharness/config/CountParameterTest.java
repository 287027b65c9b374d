package dev.resilienceharness.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CountParameterTest {

    private static String refused(CountParameter p, String value, boolean orAll) {
        return assertThrows(CountParameter.Invalid.class, () -> {
            if (orAll) {
                p.parseOrAll(value);
            } else {
                p.parse(value);
            }
        }).getMessage();
    }

    @Test
    void aWholeNumberOfAtLeastOneIsTheCount() throws Exception {
        assertEquals(1, CountParameter.DRIFT_MAX_REQUESTS.parse("1"));
        assertEquals(50, CountParameter.DRIFT_MAX_REQUESTS.parse(" 50 "));
        assertEquals(20, CountParameter.RECORD_SAMPLES.parse("20"));
        assertEquals(5, CountParameter.DRIFT_SAMPLE.parseOrAll("5"));
    }

    @Test
    void allIsEveryCassetteWhereTheParameterTakesIt() throws Exception {
        assertNull(CountParameter.DRIFT_SAMPLE.parseOrAll("all"));
        assertEquals("-Dresilience.record.samples=all: not a whole number; write a whole number of timing samples of"
                + " at least 1, such as -Dresilience.record.samples=20", refused(CountParameter.RECORD_SAMPLES, "all",
                false));
    }

    @Test
    void theDriftSampleRefusesZeroANegativeAndText() {
        String tail = "; write all, or a whole number of cassettes of at least 1, such as -Dresilience.drift.sample=5";
        assertEquals("-Dresilience.drift.sample=0: zero" + tail, refused(CountParameter.DRIFT_SAMPLE, "0", true));
        assertEquals("-Dresilience.drift.sample=-2: negative" + tail, refused(CountParameter.DRIFT_SAMPLE, "-2", true));
        assertEquals("-Dresilience.drift.sample=five: not a whole number" + tail,
                refused(CountParameter.DRIFT_SAMPLE, "five", true));
        assertEquals("-Dresilience.drift.sample=2.5: not a whole number" + tail,
                refused(CountParameter.DRIFT_SAMPLE, "2.5", true));
    }

    @Test
    void theRequestBudgetRefusesZeroANegativeTextAndAnOverflow() {
        String tail = "; write a whole number of requests of at least 1, such as -Dresilience.drift.maxRequests=50";
        assertEquals("-Dresilience.drift.maxRequests=0: zero" + tail,
                refused(CountParameter.DRIFT_MAX_REQUESTS, "0", false));
        assertEquals("-Dresilience.drift.maxRequests=-1: negative" + tail,
                refused(CountParameter.DRIFT_MAX_REQUESTS, "-1", false));
        assertEquals("-Dresilience.drift.maxRequests=lots: not a whole number" + tail,
                refused(CountParameter.DRIFT_MAX_REQUESTS, "lots", false));
        assertEquals("-Dresilience.drift.maxRequests=: not a whole number" + tail,
                refused(CountParameter.DRIFT_MAX_REQUESTS, "", false));
        assertEquals("-Dresilience.drift.maxRequests=99999999999999999999: too large" + tail,
                refused(CountParameter.DRIFT_MAX_REQUESTS, "99999999999999999999", false));
        assertEquals("-Dresilience.drift.maxRequests=3000000000: too large" + tail,
                refused(CountParameter.DRIFT_MAX_REQUESTS, "3000000000", false));
    }

    @Test
    void theRecordSamplesRefuseZeroANegativeAndText() {
        String tail = "; write a whole number of timing samples of at least 1, such as -Dresilience.record.samples=20";
        assertEquals("-Dresilience.record.samples=0: zero" + tail, refused(CountParameter.RECORD_SAMPLES, "0", false));
        assertEquals("-Dresilience.record.samples=-5: negative" + tail,
                refused(CountParameter.RECORD_SAMPLES, "-5", false));
        assertEquals("-Dresilience.record.samples=3x: not a whole number" + tail,
                refused(CountParameter.RECORD_SAMPLES, "3x", false));
    }
}
