package dev.resilienceharness.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PolicyTest {

    private static final Policy DEFAULTS = Policy.defaults(Duration.ofSeconds(30));

    private static Policy delays(Duration base, Duration max) {
        return new Policy(3, base, max, Duration.ofSeconds(30), DEFAULTS.quota(), DEFAULTS.schema(),
                DEFAULTS.slowFirstToken(), 4);
    }

    @Test
    void defaults_are_the_ones_the_spec_documents() {
        assertEquals(3, DEFAULTS.maxAttempts());
        assertEquals(Duration.ofMillis(10), DEFAULTS.baseDelay());
        assertEquals(Duration.ofSeconds(5), DEFAULTS.maxDelay());
        assertEquals(Duration.ofSeconds(30), DEFAULTS.maxTotalWait());
        assertEquals(new Policy.Quota(RetryAfterHandling.RETRY_ONCE, Duration.ofSeconds(60)), DEFAULTS.quota());
        assertEquals(1, DEFAULTS.schema().repairAttempts());
        assertEquals(Duration.ofSeconds(2), DEFAULTS.slowFirstToken().threshold());
        assertEquals(4, DEFAULTS.concurrency());
    }

    @Test
    void backoff_doubles_from_base_delay() {
        assertEquals(Duration.ofMillis(10), DEFAULTS.backoff(1));
        assertEquals(Duration.ofMillis(20), DEFAULTS.backoff(2));
        assertEquals(Duration.ofMillis(40), DEFAULTS.backoff(3));
        assertEquals(Duration.ofMillis(2560), DEFAULTS.backoff(9));
    }

    @Test
    void backoff_is_capped_at_max_delay() {
        assertEquals(Duration.ofSeconds(5), DEFAULTS.backoff(10), "10 ms * 2^9 = 5120 ms, capped");
        assertEquals(Duration.ofSeconds(5), DEFAULTS.backoff(64));
        assertEquals(Duration.ofMillis(200), delays(Duration.ofSeconds(1), Duration.ofMillis(200)).backoff(1),
                "a base above the cap is capped from the first wait");
    }

    @Test
    void backoff_for_a_huge_n_stays_at_the_cap_without_overflowing() {
        assertEquals(Duration.ofSeconds(5), DEFAULTS.backoff(Integer.MAX_VALUE));
        Duration twoHundredYears = Duration.ofDays(365L * 200);
        assertEquals(twoHundredYears, delays(Duration.ofNanos(3), twoHundredYears).backoff(Integer.MAX_VALUE));
        assertEquals(twoHundredYears, delays(Duration.ofDays(365L * 150), twoHundredYears).backoff(2));
    }

    @Test
    void backoff_counts_from_one() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DEFAULTS.backoff(0));
        assertEquals("n must be at least 1, was 0", e.getMessage());
    }

    @Test
    void a_retry_after_may_be_honoured_up_to_and_including_max_retry_after() {
        assertTrue(DEFAULTS.mayHonour(Duration.ZERO));
        assertTrue(DEFAULTS.mayHonour(Duration.ofSeconds(60)), "a delay equal to the bound is honoured");
        assertFalse(DEFAULTS.mayHonour(Duration.ofSeconds(60).plusNanos(1)));
        assertFalse(DEFAULTS.mayHonour(null), "no stated delay, nothing to honour");
    }

    @Test
    void under_stop_no_retry_after_is_honoured() {
        Policy stop = DEFAULTS.withQuota(new Policy.Quota(RetryAfterHandling.STOP, Duration.ofSeconds(60)));
        assertFalse(stop.mayHonour(Duration.ZERO));
        assertFalse(stop.mayHonour(Duration.ofSeconds(1)));
    }

    @Test
    void max_attempts_concurrency_and_repair_attempts_are_validated() {
        IllegalArgumentException attempts = assertThrows(IllegalArgumentException.class,
                () -> DEFAULTS.withMaxAttempts(0));
        assertEquals("max_attempts must be at least 1, was 0", attempts.getMessage());
        IllegalArgumentException concurrency = assertThrows(IllegalArgumentException.class,
                () -> new Policy(3, Duration.ZERO, Duration.ZERO, Duration.ZERO, DEFAULTS.quota(), DEFAULTS.schema(),
                        DEFAULTS.slowFirstToken(), 0));
        assertEquals("concurrency must be at least 1, was 0", concurrency.getMessage());
        IllegalArgumentException repairs = assertThrows(IllegalArgumentException.class, () -> new Policy.Schema(-1));
        assertEquals("repair_attempts must not be negative, was -1", repairs.getMessage());
        assertEquals(1, DEFAULTS.withMaxAttempts(1).maxAttempts());
        assertEquals(0, new Policy.Schema(0).repairAttempts());
    }

    @Test
    void each_with_method_changes_only_its_own_key() {
        Policy changed = DEFAULTS.withMaxAttempts(5);
        assertEquals(new Policy(5, DEFAULTS.baseDelay(), DEFAULTS.maxDelay(), DEFAULTS.maxTotalWait(),
                DEFAULTS.quota(), DEFAULTS.schema(), DEFAULTS.slowFirstToken(), DEFAULTS.concurrency()), changed);
        assertEquals(Duration.ofSeconds(3), DEFAULTS.withMaxTotalWait(Duration.ofSeconds(3)).maxTotalWait());
        assertEquals(DEFAULTS.withMaxTotalWait(Duration.ofSeconds(30)), DEFAULTS);
        assertEquals(new Policy.Schema(0), DEFAULTS.withSchema(new Policy.Schema(0)).schema());
        assertEquals(DEFAULTS.maxAttempts(), DEFAULTS.withSchema(new Policy.Schema(0)).maxAttempts());
    }

    @Test
    void max_rounds_defaults_to_one_and_is_validated() {
        assertEquals(1, DEFAULTS.maxRounds());
        assertEquals(1, new Policy(3, Duration.ZERO, Duration.ZERO, Duration.ZERO, DEFAULTS.quota(),
                DEFAULTS.schema(), DEFAULTS.slowFirstToken(), 1, Jitter.FULL).maxRounds());
        Policy three = DEFAULTS.withMaxRounds(3);
        assertEquals(3, three.maxRounds());
        assertEquals(DEFAULTS, three.withMaxRounds(1));
        assertEquals(3, three.withMaxAttempts(5).withJitter(Jitter.EQUAL).withSchema(new Policy.Schema(0))
                .withQuota(DEFAULTS.quota()).withMaxTotalWait(Duration.ofSeconds(1)).maxRounds());
        IllegalArgumentException rounds = assertThrows(IllegalArgumentException.class,
                () -> DEFAULTS.withMaxRounds(0));
        assertEquals("max_rounds must be at least 1, was 0", rounds.getMessage());
    }
}
