package dev.resilienceharness.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({
        "10ms, PT0.01S",
        "2s, PT2S",
        "1m, PT1M",
        "2.5s, PT2.5S",
        "1.5m, PT1M30S",
        "0.25, PT0.25S",
        "0.01, PT0.01S",
        "2, PT2S",
        "0, PT0S",
        "0ms, PT0S",
        "0.000000001, PT0.000000001S",
        "0.5ms, PT0.0005S",
        "007s, PT7S",
        "1.000000000000000000000s, PT1S",
        "525600m, PT8760H",
    })
    void readsEachForm(String text, String expected) {
        assertEquals(Duration.parse(expected), Durations.parse(text));
    }

    @Test
    void isExactWhereADoubleIsNot() {
        // 0.1 + 0.2 as doubles is 0.30000000000000004; read as decimals it is exactly 300ms.
        assertEquals(Duration.ofMillis(300), Durations.parse("0.3"));
        assertEquals(Duration.ofNanos(100_000_001), Durations.parse("0.100000001"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"fast", "", "10 ms", "1h", "1e3", ".5", "1.", "+1s", "1s ", "ms", "1,5s", "0x10"})
    void refusesWhatIsNotADuration(String text) {
        assertEquals("expected a duration such as 10ms, 2s, 1m or a plain number of seconds, got '" + text + "'",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse(text)).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1s", "-0.5", "-10ms", "-0"})
    void refusesNegatives(String text) {
        assertEquals("a duration must not be negative, got '" + text + "'",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse(text)).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"31536001", "525601m", "99999999999999999999999999999s", "31536000.000000001"})
    void refusesMoreThanAYear(String text) {
        assertEquals("numbers too large: a duration is at most one year (365 days), got '" + text + "'",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse(text)).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0000000001", "0.0000001ms", "0.00000000000000000000000000001m"})
    void refusesFinerThanANanosecond(String text) {
        assertEquals("a duration is counted in whole nanoseconds, got '" + text + "'",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse(text)).getMessage());
    }

    @Test
    void aYearIsTheLongestAccepted() {
        assertEquals(Durations.MAX, Durations.parse("31536000"));
    }

    @ParameterizedTest
    @CsvSource({"PT0S, 0s", "PT0.01S, 10ms", "PT2S, 2s", "PT2M, 2m", "PT1M30S, 90s", "PT0.0005S, 0.5ms",
        "PT0.000000001S, 0.000001ms"})
    void formatsShortest(String duration, String expected) {
        assertEquals(expected, Durations.format(Duration.parse(duration)));
    }

    @Property
    void formatReadsBack(@ForAll @LongRange(min = 0, max = 31_536_000_000_000_000L) long nanos) {
        Duration d = Duration.ofNanos(nanos);
        assertEquals(d, Durations.parse(Durations.format(d)));
    }

    @Property
    void plainSecondsAreReadAsDecimals(@ForAll @IntRange(min = 0, max = 31_535_999) int seconds,
            @ForAll @IntRange(min = 0, max = 999_999_999) int nanos) {
        String text = seconds + "." + String.format("%09d", nanos);
        Duration expected = Duration.ofSeconds(seconds, nanos);
        assertEquals(expected, Durations.parse(text));
        assertEquals(expected.toNanos(), new BigDecimal(text).movePointRight(9).longValueExact());
    }
}
