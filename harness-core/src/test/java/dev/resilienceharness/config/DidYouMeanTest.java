package dev.resilienceharness.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DidYouMeanTest {

    private static final List<String> POLICY_KEYS = List.of("max_attempts", "base_delay", "max_delay",
            "max_total_wait", "quota", "schema", "slow_first_token", "concurrency");

    @ParameterizedTest
    @CsvSource({
        "max_attemps, max_attempts",
        "max-attempts, max_attempts",
        "maxAttempts, max_attempts",
        "MAX_ATTEMPTS, max_attempts",
        "qouta, quota",
        "shcema, schema",
        "concurency, concurrency",
        "base_dealy, base_delay",
        "max_total_wiat, max_total_wait",
        "slow_first_tokens, slow_first_token",
    })
    void suggestsTheNearMiss(String word, String expected) {
        assertEquals(expected, DidYouMean.suggest(word, POLICY_KEYS));
    }

    @Test
    void staysQuietWhenNothingIsNear() {
        assertNull(DidYouMean.suggest("retries", POLICY_KEYS));
        assertNull(DidYouMean.suggest("x", POLICY_KEYS));
        assertNull(DidYouMean.suggest("", POLICY_KEYS));
        assertNull(DidYouMean.suggest("q".repeat(1000), POLICY_KEYS));
    }

    @Test
    void shortWordsAllowOneEditOnly() {
        assertEquals("ops", DidYouMean.suggest("op", List.of("name", "ops")));
        assertNull(DidYouMean.suggest("okay", List.of("ok", "degraded", "stopped")));
    }

    @Test
    void prefersTheCloserAndThenTheEarlier() {
        assertEquals("max_delay", DidYouMean.suggest("max_dela", POLICY_KEYS));
        assertEquals("ab", DidYouMean.suggest("ac", List.of("ab", "ad")));
    }

    @Test
    void countsASwapAsOneEdit() {
        assertEquals(1, DidYouMean.distance("ab", "ba"));
        assertEquals(3, DidYouMean.distance("kitten", "sitting"));
        assertEquals(0, DidYouMean.distance("", ""));
    }
}
