package dev.resilienceharness.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TimeShareTest {

    @Test
    void each_search_gets_an_even_share_of_what_is_left() {
        AtomicLong now = new AtomicLong(5_000);
        TimeShare time = new TimeShare(Duration.ofSeconds(60), 3, now::get);
        assertEquals(Duration.ofSeconds(20), time.next());
        // The first ended early: its time goes to the two after it.
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertEquals(Duration.ofSeconds(25), time.next());
        // The second overran everything: the last gets nothing, rather than a negative share.
        now.addAndGet(Duration.ofSeconds(70).toNanos());
        assertEquals(Duration.ZERO, time.next());
        assertThrows(IllegalStateException.class, time::next);
    }

    @Test
    void a_limit_of_nothing_gives_nothing() {
        TimeShare time = new TimeShare(Duration.ZERO, 2, () -> 0);
        assertEquals(Duration.ZERO, time.next());
        assertEquals(Duration.ZERO, time.next());
    }
}
