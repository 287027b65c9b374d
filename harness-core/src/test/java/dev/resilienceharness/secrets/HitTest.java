package dev.resilienceharness.secrets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HitTest {

    @Test
    void overlapIsOnHalfOpenSpans() {
        Hit hit = new Hit(Rule.JWT, "x", 5, 10);
        assertTrue(hit.overlaps(9, 12));
        assertTrue(hit.overlaps(0, 6));
        assertFalse(hit.overlaps(10, 12));
        assertFalse(hit.overlaps(0, 5));
    }
}
