package dev.resilienceharness.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class VirtualClockTest {

    @Test
    void starts_at_the_first_of_january_2026_utc_with_nothing_waited() {
        VirtualClock clock = new VirtualClock();
        assertEquals(Instant.parse("2026-01-01T00:00:00Z"), clock.now());
        assertEquals(VirtualClock.EPOCH, clock.now());
        assertEquals(Duration.ZERO, clock.totalWaited());
        assertEquals(List.of(), clock.waits());
    }

    @Test
    void moves_only_when_slept_on_and_records_every_wait() {
        VirtualClock clock = new VirtualClock();
        clock.sleep(Duration.ofMillis(10));
        clock.sleep(Duration.ZERO);
        clock.sleep(Duration.ofSeconds(2));
        assertEquals(Instant.parse("2026-01-01T00:00:02.010Z"), clock.now());
        assertEquals(Duration.ofMillis(2010), clock.totalWaited());
        assertEquals(2_010_000_000L, clock.elapsedNanos());
        assertEquals(List.of(new VirtualClock.Wait(0, 10_000_000), new VirtualClock.Wait(10_000_000, 0),
                new VirtualClock.Wait(10_000_000, 2_000_000_000)), clock.waits());
    }

    @Test
    void a_negative_wait_is_refused_and_not_recorded() {
        VirtualClock clock = new VirtualClock();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> clock.sleep(Duration.ofMillis(-1)));
        assertEquals("cannot sleep a negative duration: PT-0.001S", e.getMessage());
        assertEquals(List.of(), clock.waits());
        assertEquals(VirtualClock.EPOCH, clock.now());
    }

    @Test
    void the_waits_cannot_be_changed_from_outside() {
        VirtualClock clock = new VirtualClock();
        clock.sleep(Duration.ofMillis(1));
        assertThrows(UnsupportedOperationException.class, () -> clock.waits().clear());
    }

    @Test
    void a_loop_waiting_more_than_max_waits_times_is_cut_short() {
        VirtualClock clock = new VirtualClock();
        for (int i = 0; i < VirtualClock.MAX_WAITS; i++) {
            clock.sleep(Duration.ofNanos(1));
        }
        RunawayLoop e = assertThrows(RunawayLoop.class, () -> clock.sleep(Duration.ofNanos(1)));
        assertTrue(e.waiting(), "it was the waits that ran away");
        assertEquals("the loop waited 100000 times in one run without finishing", e.getMessage());
        assertEquals(VirtualClock.MAX_WAITS, clock.waits().size());
        assertTrue(Error.class.isAssignableFrom(RunawayLoop.class), "a loop's catch (Exception) cannot swallow it");
    }

    @Test
    void enormous_waits_saturate_instead_of_wrapping_around() {
        VirtualClock clock = new VirtualClock();
        clock.sleep(Duration.ofDays(365L * 1000));
        clock.sleep(Duration.ofDays(365L * 1000));
        clock.sleep(Duration.ofDays(365L * 1000));
        assertFalse(clock.totalWaited().isNegative());
        assertTrue(clock.totalWaited().compareTo(Duration.ofDays(365L * 200)) > 0);
        assertTrue(clock.now().isAfter(VirtualClock.EPOCH));
    }

    @Test
    void providerTimeMovesNowButIsNotWaiting() {
        VirtualClock clock = new VirtualClock();
        clock.sleep(Duration.ofMillis(10));
        clock.elapse(Duration.ofSeconds(3));
        clock.sleep(Duration.ofMillis(5), "acme-sdk 1.0");
        assertEquals(VirtualClock.EPOCH.plusMillis(3015), clock.now());
        assertEquals(Duration.ofMillis(15), clock.totalWaited());
        assertEquals(List.of(new VirtualClock.Wait(0, 10_000_000), new VirtualClock.Wait(3_010_000_000L, 5_000_000,
                "acme-sdk 1.0")), clock.waits());
        assertEquals(clock.now(), clock.asClock().instant());
        assertEquals(clock.now(), clock.asClock().withZone(java.time.ZoneId.of("Europe/Paris")).instant());
    }

    @Test
    void aSuspendedClockTakesNoWaitsUntilResumed() {
        VirtualClock clock = new VirtualClock();
        clock.suspend();
        clock.sleep(Duration.ofSeconds(1));
        assertEquals(List.of(), clock.waits());
        clock.resume();
        clock.sleep(Duration.ofSeconds(1));
        assertEquals(Duration.ofSeconds(1), clock.totalWaited());
    }
}
