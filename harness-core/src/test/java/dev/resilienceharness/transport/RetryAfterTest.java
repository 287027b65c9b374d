package dev.resilienceharness.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.resilienceharness.clock.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryAfterTest {

    private static final Instant NOW = VirtualClock.EPOCH;

    private static Optional<Duration> parse(String header) {
        return RetryAfter.parse(header, NOW);
    }

    @Test
    void whole_seconds() {
        assertEquals(Optional.of(Duration.ofSeconds(2)), parse("2"));
        assertEquals(Optional.of(Duration.ofSeconds(120)), parse("120"));
        assertEquals(Optional.of(Duration.ofSeconds(2)), parse(" 2 "), "surrounding spaces are not part of the value");
    }

    @Test
    void fractions_of_a_second() {
        assertEquals(Optional.of(Duration.ofMillis(1500)), parse("1.5"));
        assertEquals(Optional.of(Duration.ofMillis(250)), parse("0.25"));
        assertEquals(Optional.of(Duration.ofMillis(500)), parse(".5"));
    }

    @Test
    void zero_is_a_delay_of_zero_not_an_absent_header() {
        assertEquals(Optional.of(Duration.ZERO), parse("0"));
        assertEquals(Optional.of(Duration.ZERO), parse("0.0"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "-0.5", "-120"})
    void a_negative_number_counts_as_absent(String header) {
        assertEquals(Optional.empty(), parse(header));
    }

    @ParameterizedTest
    @ValueSource(strings = {"soon", "", "  ", "2s", "1e3", "0x10", "NaN", "Infinity", "1,5", "1.5.2",
            "Thu, 01 Jan 2026 99:00:00 GMT", "2026-01-01T00:00:30Z"})
    void anything_else_counts_as_absent(String header) {
        assertEquals(Optional.empty(), parse(header));
    }

    @Test
    void no_header_states_no_delay() {
        assertEquals(Optional.empty(), parse(null));
    }

    @Test
    void an_http_date_is_measured_from_the_virtual_clock() {
        assertEquals(Optional.of(Duration.ofSeconds(30)), parse("Thu, 01 Jan 2026 00:00:30 GMT"));
        assertEquals(Optional.of(Duration.ofSeconds(20)),
                RetryAfter.parse("Thu, 01 Jan 2026 00:00:30 GMT", NOW.plusSeconds(10)));
        assertEquals(Optional.of(Duration.ofHours(1)), parse("Thu, 01 Jan 2026 01:00:00 GMT"));
    }

    @Test
    void an_http_date_in_the_past_states_a_delay_of_zero() {
        assertEquals(Optional.of(Duration.ZERO), parse("Wed, 31 Dec 2025 23:59:00 GMT"));
        assertEquals(Optional.of(Duration.ZERO), RetryAfter.parse("Thu, 01 Jan 2026 00:00:30 GMT",
                NOW.plusSeconds(31)));
    }

    @Test
    void a_large_but_representable_number_is_read_exactly() {
        assertEquals(Optional.of(Duration.ofSeconds(9_000_000_000L)), parse("9000000000"));
    }

    @Test
    void a_huge_number_is_capped_instead_of_overflowing() {
        Optional<Duration> huge = parse("10000000000");
        Optional<Duration> huger = parse("99999999999999999999999999999999");
        assertEquals(Optional.of(Duration.ofSeconds(10_000_000_000L)), huge, "read exactly, past long nanoseconds");
        assertEquals(Optional.of(Duration.ofDays(365L * 1000)), huger, "capped at a thousand years");
    }

    @Test
    void a_header_read_again_states_the_same_and_a_date_is_measured_from_each_clock() {
        for (int i = 0; i < 3; i++) {
            assertEquals(Optional.of(Duration.ofMillis(1500)), parse(" 1.5 "));
            assertEquals(Optional.empty(), parse("soon"));
            assertEquals(Optional.of(Duration.ofSeconds(30 - i)),
                    RetryAfter.parse("Thu, 01 Jan 2026 00:00:30 GMT", NOW.plusSeconds(i)));
        }
    }
}
